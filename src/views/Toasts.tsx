import { Toaster } from 'react-hot-toast';
import { toasterOptions } from './theme.ts';

/** The toast area (SPEC §9: top right, gap 8, 2000 ms, dark purple, white text, light purple border). */
export default function Toasts() {
  return <Toaster {...toasterOptions} />;
}

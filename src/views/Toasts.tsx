import { useEffect } from 'react';
import { Toaster } from 'react-hot-toast';
import { toasterOptions } from './theme.ts';
import { toastAreaMounted } from './wiring.ts';

/** The toast area (SPEC §9: top right, gap 8, 2000 ms, dark purple, white text, light purple border). */
export default function Toasts() {
  useEffect(() => toastAreaMounted(), []);
  return <Toaster {...toasterOptions} />;
}

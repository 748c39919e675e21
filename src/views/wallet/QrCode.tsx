import { encode } from 'uqr';

/**
 * A QR code of `text` as SVG, drawn from the modules uqr encodes (one path, crisp at any size). Loaded
 * with the deposit address only, never in the first load.
 */
export default function QrCode({ text, label, size = 168 }: { text: string; label: string; size?: number }) {
  const { data, size: modules } = encode(text, { border: 2 });
  let path = '';
  data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) path += `M${x} ${y}h1v1h-1z`;
    }),
  );
  return (
    <svg role="img" aria-label={label} width={size} height={size} viewBox={`0 0 ${modules} ${modules}`} shapeRendering="crispEdges">
      <rect width={modules} height={modules} fill="#ffffff" />
      <path d={path} fill="#000000" />
    </svg>
  );
}

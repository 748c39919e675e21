/** The product's look: dark, with the purple of the toasts (SPEC §9) as the accent. */
export const theme = {
  color: {
    background: '#140c26',
    surface: '#1f1438',
    surfaceRaised: '#2a1c4a',
    border: '#4b3380',
    text: '#ffffff',
    textMuted: '#c9bde6',
    accent: '#9b5cff',
    accentStrong: '#7c3aed',
    accentText: '#ffffff',
    danger: '#ff6b8a',
    success: '#4ade80',
    focus: '#ffd166',
    toastBackground: '#2e1065',
    toastBorder: '#c4b5fd',
  },
  radius: { small: '6px', medium: '10px', large: '16px' },
  space: (n: number) => `${n * 0.25}rem`,
  font: {
    body: "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
    size: { small: '0.875rem', body: '1rem', large: '1.25rem', title: '1.75rem' },
  },
  breakpoint: { tablet: '@media (min-width: 640px)', desktop: '@media (min-width: 1024px)' },
} as const;

/** SPEC §9: toasts top right, normal order, gap 8, 2000 ms, dark purple background, white text, light purple border. */
export const toasterOptions = {
  position: 'top-right' as const,
  reverseOrder: false,
  gutter: 8,
  toastOptions: {
    duration: 2000,
    style: {
      background: theme.color.toastBackground,
      color: theme.color.text,
      border: `1px solid ${theme.color.toastBorder}`,
    },
  },
};

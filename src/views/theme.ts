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
    /** The accent for text on the dark surfaces (links): 7:1 on the surface, where the accent itself is 4.4:1. */
    link: '#b794ff',
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
  /**
   * The shell (DESIGN.md): one-row top bars (56 px on phones, 64 px from 1024 px, where the sidebar
   * appears), one content width and edge shared by the top bar, the pages and the footer, the phone's tab
   * bar, and the strip at the top the toasts use (dialogs start below it, so a toast never covers a
   * dialog's title or its close button).
   */
  layout: {
    topBar: '3.5rem',
    topBarDesktop: '4rem',
    sidebar: '15rem',
    sidebarCollapsed: '4.5rem',
    contentWidth: '75rem',
    gutter: '1rem',
    gutterDesktop: '1.5rem',
    tabBar: '4rem',
    toastStrip: '6rem',
  },
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

/** The element of the app's shell (Layout.tsx) that a dialog makes inert while it is open. */
export const SHELL_ID = 'shell';

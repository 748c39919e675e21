/*
 * Entry: the loading screen is in index.html, so it shows before any script runs; the application is a
 * chunk of its own, loaded here, and the loading screen leaves once it has mounted.
 */
const root = document.getElementById('root');
if (root) {
  void import('./views/App.tsx').then(({ mountApp }) => {
    mountApp(root);
    document.getElementById('loading')?.remove();
  });
}

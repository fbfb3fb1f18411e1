// Runs before the first paint (a file, not inline: the CSP allows scripts from 'self' only), so a dark choice never flashes light.
(function () {
  var stored = null;
  try { stored = window.localStorage.getItem('mantine-color-scheme-value'); } catch (e) { /* storage blocked */ }
  var scheme = stored === 'light' || stored === 'dark' ? stored : (window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');
  document.documentElement.setAttribute('data-mantine-color-scheme', scheme);
})();

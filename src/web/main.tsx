/** The board's entry: follows the system's light or dark setting and mounts the app into #app. */
import { render } from 'preact';
import { App } from './ui/app.js';
import './styles.css';

const dark = matchMedia('(prefers-color-scheme: dark)');
const theme = () => {
  document.documentElement.dataset.theme = dark.matches ? 'dark' : 'light';
  document.documentElement.style.colorScheme = dark.matches ? 'dark' : 'light';
};
theme();
dark.addEventListener('change', theme);

render(<App />, document.getElementById('app')!);

/** The board's entry: mounts the app into #app. */
import { render } from 'preact';
import { App } from './ui/app.js';
import './styles.css';

render(<App />, document.getElementById('app')!);

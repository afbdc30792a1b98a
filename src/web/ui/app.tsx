/** The board application: placeholder until the lanes land. */
export function App() {
  return <main><h1>Cairn</h1></main>;
}

import { useState } from "react";
import { render } from "./render";

export function App({ items }: { items: { id: string }[] }) {
  const [count, setCount] = useState(0);
  return (
    <main onClick={() => setCount(count + 1)}>
      {items.map((i) => <Row key={i.id} label={label(i)} />)}
      <p>Don't panic: {render(count)}</p>
    </main>
  );
}

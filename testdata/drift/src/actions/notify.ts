// notify posts to the chat service: it needs a key from the environment.
export async function notify(text: string): Promise<{ sent: boolean }> {
  const key = process.env.NOTIFY_API_KEY;
  if (!key) throw new Error("NOTIFY_API_KEY is not set");
  const res = await fetch("https://chat.invalid/post", { method: "POST", headers: { authorization: key }, body: text });
  return { sent: res.ok };
}

export function createNullLanguageModelUsage() {
  return { inputTokens: 0, cacheReadTokens: 0 };
}
export function addLanguageModelUsage() {
  return Promise.resolve({ inputTokens: 0 });
}

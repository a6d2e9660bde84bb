import { type Provider, type LanguageModel } from "./model";
interface WithVideo { videoModel?(id: string): LanguageModel }
interface Both { languageModel(id: string): LanguageModel }
export class Reg {
  get(id: string): Provider & WithVideo { return null!; }
  both(): Provider & Both { return null!; }
  loose(): Provider & Record<string, unknown> { return null!; }
  go(id: string) {
    this.get(id).languageModel(id);
    this.get(id).videoModel?.(id);
    this.both().languageModel(id);
    this.loose().languageModel(id);
  }
}

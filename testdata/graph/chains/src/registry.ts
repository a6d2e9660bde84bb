import { type Provider, Schema } from "./model";
export class Registry {
  private providers: Record<string, Provider> = {};
  schema = new Schema<string>();
  getProvider(id: string): Provider { return this.providers[id]; }
  route(id: string) {
    this.getProvider(id).languageModel(id).doGenerate("x");
    this.schema.nullable().optional();
    this.schema.nullable().unwrap().parse("x");
    this.schema.describe("a").nullable();
  }
}

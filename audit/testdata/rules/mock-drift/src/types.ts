export interface User {
  name: string;
}
export type Loaded = Promise<User>;
export type Pending<T> = Promise<T>;
export type Either = User | Loaded;
export type Cycle = Loop;
export type Loop = Cycle;

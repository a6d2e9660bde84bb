export declare const d: number;

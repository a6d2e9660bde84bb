// What every service shares: an audit trail in the database.
import type { Database } from "sql.js";

export abstract class BaseService {
  constructor(protected readonly db: Database, private readonly scope: string) {}

  protected audit(event: string): void {
    this.db.run("INSERT INTO audit_log (scope, event) VALUES (?, ?)", [this.scope, event]);
  }

  auditTrail(): string[] {
    const res = this.db.exec("SELECT event FROM audit_log WHERE scope = ? ORDER BY id", [this.scope]);
    return (res[0]?.values ?? []).map((v) => String(v[0]));
  }
}

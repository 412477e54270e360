import type { DatabaseConnection, DialectAdapter, Driver, QueryCompiler, TransactionSettings } from 'kysely';
import { CompiledQuery, SqliteAdapter, SqliteDialect } from 'kysely';

/**
 * Kysely's SQLite driver guards its one connection with a mutex whose waiters all wake
 * on every release and all but one go back to sleep: n queued queries cost n² wake-ups
 * (20,000 queued took 35 s of event loop, during which nothing else ran). This hands
 * the connection to one waiter at a time, first come first served, so the inner mutex
 * never has more than one caller and a queue of any length costs its length.
 */
class FifoDriver implements Driver {
  private held = false;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly inner: Driver) {}

  init() {
    return this.inner.init();
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    if (this.held) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.held = true;
    return this.inner.acquireConnection();
  }
  async releaseConnection(connection: DatabaseConnection) {
    await this.inner.releaseConnection(connection);
    const next = this.waiting.shift();
    // Still held: the next waiter takes it over without a race.
    if (next) next();
    else this.held = false;
  }
  /**
   * Every transaction takes the write lock when it begins (BEGIN IMMEDIATE). The server
   * and the CLI write the same file from two processes: a deferred transaction that read
   * first and then writes fails at once with SQLITE_BUSY when the other process wrote
   * meanwhile (busy_timeout cannot help an upgrade), and a balance read before another
   * process's debit would be stale. Taking the lock first makes the other writer wait its
   * turn. Inside this process there is one connection, so nothing changes there.
   */
  async beginTransaction(connection: DatabaseConnection, _settings: TransactionSettings) {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
  commitTransaction(connection: DatabaseConnection) {
    return this.inner.commitTransaction(connection);
  }
  rollbackTransaction(connection: DatabaseConnection) {
    return this.inner.rollbackTransaction(connection);
  }
  savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    return this.inner.savepoint!(connection, name, compile);
  }
  rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    return this.inner.rollbackToSavepoint!(connection, name, compile);
  }
  releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    return this.inner.releaseSavepoint!(connection, name, compile);
  }
  destroy() {
    return this.inner.destroy();
  }
}

/**
 * SQLite runs schema changes inside a transaction like any other statement; Kysely's
 * adapter says it cannot only to stay safe on every SQLite build. Saying yes makes its
 * migrator run the pending migrations in one transaction: a migration that fails, or a
 * start killed halfway (a power cut, systemd's SIGKILL), leaves the database as it was.
 */
class TransactionalDdlAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl() {
    return true;
  }
}

/** Kysely's SQLite dialect with the connection handed out in order (FifoDriver) and migrations in a transaction. */
export class FifoSqliteDialect extends SqliteDialect {
  override createDriver(): Driver {
    return new FifoDriver(super.createDriver());
  }
  override createAdapter(): DialectAdapter {
    return new TransactionalDdlAdapter();
  }
}

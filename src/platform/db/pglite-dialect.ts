// Kysely dialect over one embedded PGlite instance, serialised by a mutex shared with the queue.
import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';
import type { Mutex } from '../mutex.ts';

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly db: PGlite) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    // A statement without parameters may be a script of several (a migration): PGlite's simple
    // protocol runs those, and reports the last statement's result.
    const result =
      query.parameters.length === 0
        ? ((await this.db.exec(query.sql)).at(-1) ?? { rows: [], affectedRows: undefined })
        : await this.db.query<R>(query.sql, query.parameters as unknown[]);
    return {
      rows: result.rows as R[],
      numAffectedRows: result.affectedRows === undefined ? undefined : BigInt(result.affectedRows),
    };
  }

  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming queries are not supported on PGlite');
  }
}

class PGliteDriver implements Driver {
  private readonly releases = new Map<DatabaseConnection, () => void>();
  private readonly connection: PGliteConnection;

  constructor(
    db: PGlite,
    private readonly mutex: Mutex,
  ) {
    this.connection = new PGliteConnection(db);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.mutex.acquire();
    this.releases.set(this.connection, release);
    return this.connection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('BEGIN'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('COMMIT'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('ROLLBACK'));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const release = this.releases.get(connection);
    this.releases.delete(connection);
    release?.();
  }

  async destroy(): Promise<void> {}
}

export function pgliteDialect(db: PGlite, mutex: Mutex): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new PGliteDriver(db, mutex),
    createQueryCompiler: () => new PostgresQueryCompiler(),
    createIntrospector: (kysely: Kysely<unknown>) => new PostgresIntrospector(kysely),
  };
}

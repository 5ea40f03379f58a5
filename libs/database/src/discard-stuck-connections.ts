import { DataSource } from 'typeorm';

interface PooledConnection {
  /** mysql2's command in progress: still set while a timed-out query waits for the server. */
  _command?: unknown;
  release(): void;
  destroy(): void;
}

interface ConnectionPool {
  on(event: 'connection', listener: (connection: PooledConnection) => void): void;
}

/**
 * mysql2 runs one connection's commands one after the other, and a query that timed out stays
 * that connection's current command until the server answers. Put back into the pool, such a
 * connection would make the next query wait behind it with no deadline of its own (a query's
 * timer starts only when it reaches the front). So a connection released while a command is still
 * pending is destroyed instead; the pool opens a fresh one when needed.
 */
export function discardStuckConnections(dataSource: DataSource): void {
  if (dataSource.options.type !== 'mysql') return;
  const pool = (dataSource.driver as unknown as { pool: ConnectionPool }).pool;
  pool.on('connection', (connection) => {
    const release = connection.release.bind(connection);
    connection.release = () => (connection._command ? connection.destroy() : release());
  });
}

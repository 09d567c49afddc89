// The tests' throwaway PostgreSQL server is the one the chapters and the benchmark start:
// one definition, in the PostgresServer target.
@_exported import PostgresServer

/// The tests' name for ``PrivatePostgresServer``.
public typealias PostgresTestServer = PrivatePostgresServer

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A throwaway PostgreSQL cluster for one process (the tests', the benchmark's, or a chapter's
/// that runs on PostgreSQL): made with `initdb` in a temporary directory, started with `pg_ctl`
/// on a free loopback port the first time it is asked for, stopped (and its directory removed)
/// when the process exits. Each store gets a schema of its own (``url(schema:)``), so stores run
/// in parallel without sharing tables. One definition for the tests (TestSupport's
/// `PostgresTestServer`), `bench --store postgres` and chapter 10 (`scaling`).
///
/// PostgreSQL refuses to run as root: when the tests run as root the cluster belongs to the
/// `postgres` user (Debian's package makes it), else `nobody`, through `runuser`.
///
/// Without Debian's `postgresql` package the server is ``unavailable``: a test then says why
/// it did not run and passes, except on CI (`CI` set), where `.ci/run` installs the package
/// and a missing server is a failure.
public final class PrivatePostgresServer: @unchecked Sendable {
    // @unchecked Sendable: every property is set once, in `init`, before the value is shared.
    /// The port the server listens on, on 127.0.0.1.
    public let port: Int
    /// The server's directory: its data, its socket and its log.
    public let directory: URL
    private let pgCtl: String
    private let owner: String?
    /// `pg_ctl -o` options: the port, the socket folder, loopback only.
    private let serverOptions: String
    /// The password of user `postgres` over TCP, for a private server (``makePrivate()``);
    /// nil for the shared one, which trusts every connection.
    public let password: String?

    /// Why the tests that need PostgreSQL did not run.
    public struct Unavailable: Error, CustomStringConvertible {
        /// The reason, said in a person's words.
        public let description: String
        /// A reason, said in a person's words.
        public init(description: String) { self.description = description }
    }

    /// The process's server, started on first use; or why there is none. Setting
    /// `OBJECTGRAPH_NO_POSTGRES=1` makes it none, as on a machine without PostgreSQL, so that
    /// what a program does then can be tried where PostgreSQL is installed.
    public static let shared: Result<PrivatePostgresServer, Unavailable> = {
        if let off = ProcessInfo.processInfo.environment["OBJECTGRAPH_NO_POSTGRES"], !off.isEmpty, off != "0" {
            return .failure(Unavailable(description: "OBJECTGRAPH_NO_POSTGRES is set, so no PostgreSQL server starts"))
        }
        do {
            let server = try PrivatePostgresServer()
            atexit { PrivatePostgresServer.stopShared() }
            return .success(server)
        } catch let error as Unavailable {
            return .failure(error)
        } catch {
            return .failure(Unavailable(description: "PostgreSQL did not start: \(error)"))
        }
    }()

    /// Whether a missing server fails the tests rather than skipping them (CI).
    public static var isRequired: Bool {
        ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty && $0 != "0" && $0 != "false" } ?? false
    }

    /// A `postgres://` URL of the shared server with `schema` as the store's schema; nil (having
    /// printed why, for `test`) when there is no server, or an error when CI requires one.
    public static func url(schema: String, for test: String = #function) throws -> URL? {
        switch shared {
        case .success(let server):
            return server.url(schema: schema)
        case .failure(let reason):
            if isRequired { throw Unavailable(description: "CI requires PostgreSQL, but: \(reason)") }
            print("◇ \(test): PostgreSQL not tested: \(reason)")
            return nil
        }
    }

    /// A fresh schema name for one store of one test, unique across processes.
    public static func uniqueSchema(_ prefix: String = "t") -> String {
        let id = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        return "\(prefix.lowercased())_\(id)"
    }

    /// The URL of database `postgres` as superuser `postgres`, schema `schema`; with the
    /// private server's password unless `password` gives another.
    public func url(schema: String, password: String? = nil) -> URL {
        var components = URLComponents()
        components.scheme = "postgres"
        components.user = "postgres"
        components.password = password ?? self.password
        components.host = "127.0.0.1"
        components.port = port
        components.path = "/postgres"
        components.queryItems = [URLQueryItem(name: "schema", value: schema)]
        return components.url!
    }

    private init() throws {
        guard let bin = Self.binDirectory() else {
            throw Unavailable(
                description:
                    "PostgreSQL is not installed: initdb and pg_ctl were not found on PATH or in /usr/lib/postgresql/*/bin (apt-get install postgresql)"
            )
        }
        pgCtl = bin + "/pg_ctl"
        owner = try Self.owner()
        directory = try Self.makeDirectory(owner: owner)
        password = nil
        let data = directory.appendingPathComponent("data").path
        try Self.run(
            bin + "/initdb",
            ["-D", data, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync"], as: owner)
        (port, serverOptions) = try Self.start(
            pgCtl: pgCtl, directory: directory, owner: owner,
            settings: "-c max_connections=400 -c shared_buffers=64MB")
    }

    /// A private server, copied from a cluster made once per process, whose user `postgres`
    /// needs ``password`` over TCP: for tests that stop, crash or restart their server, or
    /// that need a password. Nil (having said why) without PostgreSQL, as ``url(schema:for:)``.
    /// Call ``shutDown()`` when done.
    public static func makePrivate(for test: String = #function) throws -> PrivatePostgresServer? {
        switch shared {
        case .success:
            return try PrivatePostgresServer(copying: try template.get())
        case .failure(let reason):
            if isRequired { throw Unavailable(description: "CI requires PostgreSQL, but: \(reason)") }
            print("◇ \(test): PostgreSQL not tested: \(reason)")
            return nil
        }
    }

    /// The password of every private server.
    private static let privatePassword = "s3cret-\(UUID().uuidString.prefix(8))"

    /// The cluster private servers are copied from: initdb is slow, a copy is not.
    private static let template: Result<URL, any Error> = Result {
        guard let bin = binDirectory() else { throw Unavailable(description: "initdb was not found") }
        let user = try PrivatePostgresServer.owner()
        let directory = try makeDirectory(owner: user)
        atexit { PrivatePostgresServer.removeTemplate() }
        let passwordFile = directory.appendingPathComponent("password")
        try privatePassword.write(to: passwordFile, atomically: true, encoding: .utf8)
        if let user, let ids = ids(of: user) { _ = chown(passwordFile.path, ids.uid, ids.gid) }
        let data = directory.appendingPathComponent("data").path
        try run(
            bin + "/initdb",
            [
                "-D", data, "-U", "postgres", "--auth-local=trust", "--auth-host=scram-sha-256",
                "--pwfile=\(passwordFile.path)", "--encoding=UTF8", "--locale=C", "--no-sync",
            ],
            as: user)
        return directory
    }

    private static func removeTemplate() {
        if case .success(let directory) = template { try? FileManager.default.removeItem(at: directory) }
    }

    private init(copying template: URL) throws {
        guard let bin = Self.binDirectory() else { throw Unavailable(description: "pg_ctl was not found") }
        pgCtl = bin + "/pg_ctl"
        owner = try Self.owner()
        directory = try Self.makeDirectory(owner: owner)
        password = Self.privatePassword
        try Self.run("/bin/cp", ["-a", template.appendingPathComponent("data").path, directory.path], as: owner)
        (port, serverOptions) = try Self.start(
            pgCtl: pgCtl, directory: directory, owner: owner,
            settings: "-c max_connections=40 -c shared_buffers=16MB")
    }

    /// Starts the server in `directory` on a free port, trying five ports.
    private static func start(
        pgCtl: String, directory: URL, owner: String?,
        settings: String
    ) throws -> (Int, String) {
        var lastError: (any Error)?
        for _ in 0..<5 {
            let candidate = try Self.freePort()
            let options = "-p \(candidate) -k \(directory.path) -c listen_addresses=127.0.0.1 -c fsync=off \(settings)"
            do {
                let data = directory.appendingPathComponent("data").path
                let log = directory.appendingPathComponent("server.log").path
                try Self.run(pgCtl, ["-D", data, "-o", options, "-l", log, "-w", "-t", "60", "start"], as: owner)
                return (candidate, options)
            } catch {
                lastError = error
            }
        }
        throw Unavailable(description: "pg_ctl could not start the server: \(lastError.map { "\($0)" } ?? "")")
    }

    /// Stops the server as a crash would (`pg_ctl stop -m immediate`: every server process
    /// quits at once, nothing is flushed, the next start recovers from the WAL).
    public func crash() throws {
        let data = directory.appendingPathComponent("data").path
        try Self.run(pgCtl, ["-D", data, "-m", "immediate", "-w", "stop"], as: owner)
    }

    /// Starts the server again on its port, after ``crash()``.
    public func restart() throws {
        let data = directory.appendingPathComponent("data").path
        let log = directory.appendingPathComponent("server.log").path
        try Self.run(pgCtl, ["-D", data, "-o", serverOptions, "-l", log, "-w", "-t", "60", "start"], as: owner)
    }

    /// Stops a private server and removes its directory.
    public func shutDown() {
        try? crash()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The user the server runs as: PostgreSQL refuses root.
    private static func owner() throws -> String? {
        guard getuid() == 0 else { return nil }
        guard let owner = unprivilegedUser() else {
            throw Unavailable(
                description: "the tests run as root and neither the postgres nor the nobody user "
                    + "exists to run PostgreSQL as")
        }
        return owner
    }

    /// A new directory for a cluster, its owner's alone.
    private static func makeDirectory(owner: String?) throws -> URL {
        let directory = URL(fileURLWithPath: "/tmp/objectgraph-pg-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        if let owner, let ids = ids(of: owner) {
            _ = chown(directory.path, ids.uid, ids.gid)
        }
        return directory
    }

    /// Stops the shared server, if one started, and removes its directory.
    private static func stopShared() {
        guard case .success(let server) = shared else { return }
        try? run(
            server.pgCtl,
            ["-D", server.directory.appendingPathComponent("data").path, "-m", "immediate", "-w", "stop"],
            as: server.owner)
        try? FileManager.default.removeItem(at: server.directory)
    }

    /// Runs a PostgreSQL program, as the unprivileged owner when the tests run as root, and
    /// waits for it. posix_spawn and waitpid rather than Foundation's Process: the server that
    /// `pg_ctl start` leaves running inherits the program's descriptors, and Process then never
    /// sees its child end.
    private static func run(_ program: String, _ arguments: [String], as owner: String?) throws {
        let argv = owner.map { ["/usr/sbin/runuser", "-u", $0, "--", program] } ?? [program]
        let all = argv + arguments
        let log = FileManager.default.temporaryDirectory.appendingPathComponent(
            "objectgraph-pg-\(getpid())-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var cStrings = all.map { strdup($0) }
        defer { for pointer in cStrings { free(pointer) } }
        cStrings.append(nil)
        var pid = pid_t()
        let spawned = posix_spawn(&pid, all[0], &actions, nil, cStrings, environ)
        guard spawned == 0 else {
            throw Unavailable(description: "\(all[0]) could not start: \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let exitCode = (status >> 8) & 0xFF
        guard status & 0x7F == 0, exitCode == 0 else {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw Unavailable(
                description: "\((program as NSString).lastPathComponent) failed (status \(status)): \(text.suffix(600))"
            )
        }
    }

    /// The path of one of PostgreSQL's programs (`psql`, for a program that shows the server's
    /// tables), found as `initdb` is; nil when it is not installed.
    public static func program(named name: String) -> String? {
        programFolders().lazy.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// PATH, then Debian's versioned folders, newest first.
    private static func programFolders() -> [String] {
        let path = ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":").map(String.init) ?? []
        let debian = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
            .sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }.map { "/usr/lib/postgresql/\($0)/bin" }
        return path + debian
    }

    /// The folder of `initdb` and `pg_ctl`: PATH first, then Debian's versioned folders, newest first.
    private static func binDirectory() -> String? {
        programFolders().first { folder in
            ["initdb", "pg_ctl", "postgres"].allSatisfy {
                FileManager.default.isExecutableFile(atPath: "\(folder)/\($0)")
            }
        }
    }

    private static func unprivilegedUser() -> String? {
        ["postgres", "nobody"].first { ids(of: $0) != nil }
    }

    private static func ids(of user: String) -> (uid: uid_t, gid: gid_t)? {
        guard let entry = getpwnam(user) else { return nil }
        return (entry.pointee.pw_uid, entry.pointee.pw_gid)
    }

    /// A loopback port nothing listens on now (the kernel's choice for port 0).
    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Unavailable(description: "no socket for a free port") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw Unavailable(description: "could not find a free loopback port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

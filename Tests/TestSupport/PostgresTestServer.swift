import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A throwaway PostgreSQL cluster for the tests of one test process: made with `initdb` in a
/// temporary directory, started with `pg_ctl` on a free loopback port the first time a test
/// asks for it, stopped (and its directory removed) when the process exits. Each test gets a
/// schema of its own (``url(schema:)``), so tests run in parallel without sharing tables.
///
/// PostgreSQL refuses to run as root: when the tests run as root the cluster belongs to the
/// `postgres` user (Debian's package makes it), else `nobody`, through `runuser`.
///
/// Without Debian's `postgresql` package the server is ``unavailable``: a test then says why
/// it did not run and passes, except on CI (`CI` set), where `.ci/run` installs the package
/// and a missing server is a failure.
public final class PostgresTestServer: @unchecked Sendable {
    // @unchecked Sendable: every property is set once, in `init`, before the value is shared.
    /// The port the server listens on, on 127.0.0.1.
    public let port: Int
    /// The server's directory: its data, its socket and its log.
    public let directory: URL
    private let pgCtl: String
    private let owner: String?

    /// Why the tests that need PostgreSQL did not run.
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    /// The process's server, started on first use; or why there is none.
    public static let shared: Result<PostgresTestServer, Unavailable> = {
        do {
            let server = try PostgresTestServer()
            atexit { PostgresTestServer.stopShared() }
            return .success(server)
        } catch let error as Unavailable {
            return .failure(error)
        } catch {
            return .failure(Unavailable(description: "PostgreSQL did not start: \(error)"))
        }
    }()

    /// Whether a missing server fails the tests rather than skipping them (CI).
    public static var isRequired: Bool { ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty && $0 != "0" && $0 != "false" } ?? false }

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

    /// The URL of database `postgres` as superuser `postgres`, schema `schema`.
    public func url(schema: String) -> URL {
        URL(string: "postgres://postgres@127.0.0.1:\(port)/postgres?schema=\(schema)")!
    }

    private init() throws {
        guard let bin = Self.binDirectory() else {
            throw Unavailable(description: "initdb and pg_ctl were not found on PATH or in /usr/lib/postgresql/*/bin (apt-get install postgresql)")
        }
        pgCtl = bin + "/pg_ctl"
        owner = getuid() == 0 ? Self.unprivilegedUser() : nil
        if getuid() == 0, owner == nil {
            throw Unavailable(description: "the tests run as root and neither the postgres nor the nobody user exists to run PostgreSQL as")
        }
        directory = URL(fileURLWithPath: "/tmp/objectgraph-pg-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        if let owner, let ids = Self.ids(of: owner) {
            _ = chown(directory.path, ids.uid, ids.gid)
        }
        let data = directory.appendingPathComponent("data").path
        try Self.run(bin + "/initdb", ["-D", data, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync"], as: owner)
        var lastError: (any Error)?
        for _ in 0..<5 {
            let candidate = try Self.freePort()
            let options = "-p \(candidate) -k \(directory.path) -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=400 -c shared_buffers=64MB"
            do {
                try Self.run(pgCtl, ["-D", data, "-o", options, "-l", directory.appendingPathComponent("server.log").path, "-w", "-t", "60", "start"], as: owner)
                port = candidate
                return
            } catch {
                lastError = error
            }
        }
        throw Unavailable(description: "pg_ctl could not start the server: \(lastError.map { "\($0)" } ?? "")")
    }

    /// Stops the shared server, if one started, and removes its directory.
    private static func stopShared() {
        guard case .success(let server) = shared else { return }
        try? run(server.pgCtl, ["-D", server.directory.appendingPathComponent("data").path, "-m", "immediate", "-w", "stop"], as: server.owner)
        try? FileManager.default.removeItem(at: server.directory)
    }

    /// Runs a PostgreSQL program, as the unprivileged owner when the tests run as root, and
    /// waits for it. posix_spawn and waitpid rather than Foundation's Process: the server that
    /// `pg_ctl start` leaves running inherits the program's descriptors, and Process then never
    /// sees its child end.
    private static func run(_ program: String, _ arguments: [String], as owner: String?) throws {
        let argv = owner.map { ["/usr/sbin/runuser", "-u", $0, "--", program] } ?? [program]
        let all = argv + arguments
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("objectgraph-pg-\(getpid())-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var cStrings = all.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
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
            throw Unavailable(description: "\((program as NSString).lastPathComponent) failed (status \(status)): \(text.suffix(600))")
        }
    }

    /// The folder of `initdb` and `pg_ctl`: PATH first, then Debian's versioned folders, newest first.
    private static func binDirectory() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":").map(String.init) ?? []
        let debian = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
            .sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }.map { "/usr/lib/postgresql/\($0)/bin" }
        return (path + debian).first { folder in
            ["initdb", "pg_ctl", "postgres"].allSatisfy { FileManager.default.isExecutableFile(atPath: "\(folder)/\($0)") }
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
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw Unavailable(description: "could not find a free loopback port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

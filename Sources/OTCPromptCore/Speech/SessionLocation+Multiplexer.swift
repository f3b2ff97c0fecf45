// SPDX-License-Identifier: GPL-3.0-or-later

extension SessionLocation {
    static func multiplexerKind(_ process: ProcessRecord) -> String? {
        if process.name == "tmux: server" { return "tmux" }
        if process.name.lowercased() == "screen" { return "screen" }
        return nil
    }

    /// The clients of one multiplexer server, run by the server's user on a terminal of their own. A tmux
    /// client is the server's only when it talks to the server's socket: another server of the same user
    /// has clients of its own, and the person typing there may be elsewhere. screen's clients cannot be
    /// told apart by server, so they count only when the user runs one screen server.
    static func throughMultiplexer(
        _ kind: String, server: ProcessRecord, terminal: TerminalDevice, processes: Processes,
        terminals: (UInt64) -> TerminalDevice?
    ) -> SessionLocation {
        let candidates = processes.all().filter {
            $0.pid != server.pid && $0.uid == server.uid && $0.terminal != terminal.device
        }
        let clients: [ProcessRecord]
        var serverSocket: String?
        if kind == "tmux" {
            guard let socket = tmuxSocket(of: server, processes: processes) else {
                return SessionLocation(
                    .unknown, terminal: terminal.path, owner: server.uid, multiplexer: kind,
                    evidence: "\(terminal.path) is a tmux pane whose server's socket could not be found")
            }
            clients = candidates.filter {
                $0.name == "tmux: client" && $0.terminal != 0 && tmuxSocket(of: $0, processes: processes) == socket
            }
            serverSocket = socket
        } else {
            let screens = candidates.filter { $0.name.lowercased() == "screen" }
            let otherServers = screens.filter { $0.terminal == 0 }.count
            guard otherServers == 0 else {
                return SessionLocation(
                    .unknown, terminal: terminal.path, owner: server.uid, multiplexer: kind,
                    evidence: "\(terminal.path) is a screen pane of one of \(otherServers + 1) screen servers, "
                        + "whose clients cannot be told apart")
            }
            clients = screens.filter { $0.terminal != 0 }
        }
        let devices = Set(clients.map(\.terminal)).compactMap(terminals)
        guard let last = devices.max(by: { ($0.lastInput ?? .min, $0.path) < ($1.lastInput ?? .min, $1.path) })
        else {
            var alone = SessionLocation(
                .unknown, terminal: terminal.path, owner: server.uid, multiplexer: kind,
                evidence: "\(terminal.path) is a \(kind) pane with no client attached")
            alone.multiplexerSocket = serverSocket
            return alone
        }
        let how = devices.count == 1 ? "its one client" : "of its \(devices.count) clients, the one typed on last,"
        var found = locate(
            terminal: last, sessionLeader: nil, processes: processes, terminals: terminals,
            through: "\(terminal.path) is a \(kind) pane and \(how) is on \(last.path)")
        found.multiplexer = kind
        found.multiplexerSocket = serverSocket
        return found
    }

    private static func tmuxSocket(of process: ProcessRecord, processes: Processes) -> String? {
        MultiplexerSocket.tmux(arguments: processes.arguments(process.pid), uid: process.uid) {
            processes.variable(process.pid, $0)
        }
    }
}

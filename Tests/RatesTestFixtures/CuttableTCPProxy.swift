import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// A TCP forwarder on loopback that can be cut, as a database server that goes down and comes
/// back looks to its clients: while cut, every connection through it is closed and its port
/// refuses new ones; restored, it listens on the same port and forwards again. It can instead be
/// stalled, as a network partition looks: connections stay open and new ones are accepted, but
/// nothing gets through in either direction, and no reset ever tells the client so. The server
/// behind it keeps running, so other tests sharing it are not disturbed.
package final class CuttableTCPProxy: Sendable {
    private struct State {
        var isCut = false
        var isStalled = false
        var listener: (any Channel)?
        var open: [ObjectIdentifier: any Channel] = [:]
    }

    private let state = Mutex(State())
    private let target: (host: String, port: Int)
    /// The loopback port it listens on.
    package let port: Int

    private init(target: (host: String, port: Int), port: Int) {
        self.target = target
        self.port = port
    }

    /// Runs a proxy for `host:port` during `body`, and closes it and every connection through it afterwards.
    package static func run<Result>(forwardingTo host: String, port: Int, _ body: (CuttableTCPProxy) async throws -> Result) async throws -> Result {
        let free = try await listen(on: 0) { _ in nil }
        let made = CuttableTCPProxy(target: (host, port), port: free.localAddress?.port ?? 0)
        try await free.close()
        try await made.restore()
        defer { made.cut() }
        return try await body(made)
    }

    /// Closes every connection through the proxy and stops listening, so new ones are refused, until ``restore()``.
    package func cut() {
        let (listener, open) = state.withLock { state in
            state.isCut = true
            defer { state.listener = nil }
            return (state.listener, Array(state.open.values))
        }
        listener?.close(promise: nil)
        for channel in open { channel.close(promise: nil) }
    }

    /// Lets nothing through any connection, open or new, until ``heal()``: what is sent is lost.
    package func stall() {
        state.withLock { $0.isStalled = true }
    }

    /// Ends a stall: the connections it held are closed (their bytes were lost, as TCP would
    /// have given up on them), and new ones are forwarded again.
    package func heal() {
        let open = state.withLock { state in
            state.isStalled = false
            return Array(state.open.values)
        }
        for channel in open { channel.close(promise: nil) }
    }

    /// Listens on the proxy's port again and forwards new connections.
    package func restore() async throws {
        let listener = try await Self.listen(on: port) { [weak self] inbound in self?.connect(inbound) }
        state.withLock { state in
            state.isCut = false
            state.listener = listener
        }
    }

    private static func listen(on port: Int, _ accept: @escaping @Sendable (any Channel) -> EventLoopFuture<Void>?) async throws -> any Channel {
        try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { inbound in accept(inbound) ?? inbound.eventLoop.makeFailedFuture(ChannelError.ioOnClosedChannel) }
            .bind(host: "127.0.0.1", port: port).get()
    }

    /// `url` (`postgres://user@127.0.0.1:5432/db`) with its port replaced by the proxy's.
    package func url(through url: String) -> String {
        guard var components = URLComponents(string: url) else { return url }
        components.host = "127.0.0.1"
        components.port = port
        return components.string ?? url
    }

    private func connect(_ inbound: any Channel) -> EventLoopFuture<Void> {
        guard state.withLock({ !$0.isCut }) else { return inbound.eventLoop.makeFailedFuture(ChannelError.ioOnClosedChannel) }
        return ClientBootstrap(group: inbound.eventLoop)
            .channelInitializer { outbound in
                outbound.eventLoop.makeCompletedFuture { try outbound.pipeline.syncOperations.addHandler(Forwarder(peer: inbound, isStalled: self.isStalled)) }
            }
            .connect(host: target.host, port: target.port)
            .flatMapThrowing { outbound in
                try inbound.pipeline.syncOperations.addHandler(Forwarder(peer: outbound, isStalled: self.isStalled))
                self.track(inbound)
                self.track(outbound)
            }
    }

    private var isStalled: @Sendable () -> Bool {
        { [weak self] in self?.state.withLock { $0.isStalled } ?? false }
    }

    private func track(_ channel: any Channel) {
        let key = ObjectIdentifier(channel)
        let keep = state.withLock { state in
            guard !state.isCut else { return false }
            state.open[key] = channel
            return true
        }
        guard keep else { return channel.close(promise: nil) }
        channel.closeFuture.whenComplete { _ in self.state.withLock { _ = $0.open.removeValue(forKey: key) } }
    }
}

/// Writes what one side of a proxied connection reads to the other (unless stalled: then it is
/// lost), and closes the other when it closes.
private final class Forwarder: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    let peer: any Channel
    let isStalled: @Sendable () -> Bool

    init(peer: any Channel, isStalled: @escaping @Sendable () -> Bool) {
        self.peer = peer
        self.isStalled = isStalled
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !isStalled() else { return }
        peer.writeAndFlush(unwrapInboundIn(data), promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        peer.close(promise: nil)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// A TCP forwarder on loopback that can be cut, as a database server that goes down and comes
/// back looks to its clients: while cut, every connection through it is closed and each new one
/// is closed as it arrives; restored, it forwards again. The server behind it keeps running, so
/// other tests sharing it are not disturbed.
package final class CuttableTCPProxy: Sendable {
    private struct State {
        var isCut = false
        var open: [ObjectIdentifier: any Channel] = [:]
    }

    private let state = Mutex(State())
    private let target: (host: String, port: Int)
    /// The loopback port it listens on.
    package let port: Int
    private let listener: any Channel

    private init(target: (host: String, port: Int), listener: any Channel, port: Int) {
        self.target = target
        self.listener = listener
        self.port = port
    }

    /// Runs a proxy for `host:port` during `body`, and closes it and every connection through it afterwards.
    package static func run<Result>(forwardingTo host: String, port: Int, _ body: (CuttableTCPProxy) async throws -> Result) async throws -> Result {
        let proxy = Box()
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { inbound in
                guard let proxy = proxy.value else { return inbound.eventLoop.makeFailedFuture(ChannelError.ioOnClosedChannel) }
                return proxy.connect(inbound)
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let made = CuttableTCPProxy(target: (host, port), listener: listener, port: listener.localAddress?.port ?? 0)
        proxy.value = made
        defer { made.shutDown() }
        return try await body(made)
    }

    /// Closes every connection through the proxy, and each new one as it arrives, until ``restore()``.
    package func cut() {
        let open = state.withLock { state in
            state.isCut = true
            return Array(state.open.values)
        }
        for channel in open { channel.close(promise: nil) }
    }

    /// Forwards new connections again.
    package func restore() {
        state.withLock { $0.isCut = false }
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
                outbound.eventLoop.makeCompletedFuture { try outbound.pipeline.syncOperations.addHandler(Forwarder(peer: inbound)) }
            }
            .connect(host: target.host, port: target.port)
            .flatMapThrowing { outbound in
                try inbound.pipeline.syncOperations.addHandler(Forwarder(peer: outbound))
                self.track(inbound)
                self.track(outbound)
            }
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

    private func shutDown() {
        cut()
        listener.close(promise: nil)
    }

    /// The proxy, for the listener's initializer, which is made before it.
    private final class Box: Sendable {
        private let stored = Mutex<CuttableTCPProxy?>(nil)
        var value: CuttableTCPProxy? {
            get { stored.withLock { $0 } }
            set { stored.withLock { $0 = newValue } }
        }
    }
}

/// Writes what one side of a proxied connection reads to the other, and closes the other when it closes.
private final class Forwarder: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    let peer: any Channel

    init(peer: any Channel) {
        self.peer = peer
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
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

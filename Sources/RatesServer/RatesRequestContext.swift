import Hummingbird
import NIOCore

/// The request context of the server's routes: Hummingbird's basics plus the client's address,
/// which per-client rate limiting keys on when a request carries no API key.
public struct RatesRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The connected peer.
    public let remoteAddress: SocketAddress?

    /// A context for a request arriving on `source.channel`.
    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}

import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// Hummingbird's HTTP/1.1 channel with ``FastPathHandler`` right behind the HTTP decoder.
///
/// The handler goes in front of the conversion to `HTTPTypes`, so a prepared answer costs
/// neither that conversion nor the framework's response path. Its answers still go through
/// NIO's response encoder, which pairs every response with a request the decoder saw.
struct FastPathHTTP1Channel: HTTPChannelHandler {
    typealias Value = HTTP1Channel.Value

    let base: HTTP1Channel
    let fastPath: FastPath?
    let idleTimeout: TimeAmount?

    /// - Parameters:
    ///   - base: The framework's channel; give it no idle timeout, since ``FastPathHandler``
    ///     keeps that (the framework's handler never sees the requests answered in front of it).
    ///   - fastPath: What answers prepared requests; `nil` answers none (every request goes to the application).
    ///   - idleTimeout: How long a connection may stay without a request in progress.
    init(base: HTTP1Channel, fastPath: FastPath?, idleTimeout: TimeAmount?) {
        self.base = base
        self.fastPath = fastPath
        self.idleTimeout = idleTimeout
    }

    var responder: HTTPChannelHandler.Responder { base.responder }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let handler = FastPathHandler(fastPath: fastPath, idleTimeout: idleTimeout)
            try pipeline.addHandler(handler, position: .after(try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}

/// A connection's fast path and idle timeout: answers what ``FastPath`` can on the event loop,
/// passes the rest on, and closes the connection once it has been idle for the timeout.
///
/// HTTP/1.1 answers must go out in request order, so it answers only while no earlier request
/// of the connection is still with the application.
final class FastPathHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let fastPath: FastPath?
    private let idleTimeout: TimeAmount?
    /// Requests handed to the application and not yet fully answered.
    private var pending = 0
    /// Whether a request's head arrived and its end has not yet.
    private var reading = false
    /// Whether the rest of the current request (its body and end) belongs to an answer given here.
    private var answeredHere = false
    /// Whether the connection ends once the answers in progress are written: a request asked
    /// for it (HTTP/1.0 without keep-alive, which the framework keeps open) or an answer said
    /// `Connection: close` (the framework would otherwise first read the rest of a refused body).
    private var closeWhenAnswered = false
    /// When a request's head or end last arrived or an answer last finished. Body parts do not
    /// count: a request must arrive whole within the idle timeout of its head, so a body
    /// trickled a byte at a time cannot hold the connection.
    private var lastActivity = NIODeadline.now()
    private var idleCheck: Scheduled<Void>?

    init(fastPath: FastPath?, idleTimeout: TimeAmount?) {
        self.fastPath = fastPath
        self.idleTimeout = idleTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { scheduleIdleCheck(context: context, at: lastActivity) }
    }

    func channelActive(context: ChannelHandlerContext) {
        scheduleIdleCheck(context: context, at: .now())
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelIdleCheck()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelIdleCheck()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            lastActivity = .now()
            reading = true
            if pending == 0, let answer = fastPath?.answer(to: request) {
                answeredHere = true
                context.write(wrapOutboundOut(.head(answer.head)), promise: nil)
                if let body = answer.body { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                return
            }
            pending += 1
            if !request.isKeepAlive { closeWhenAnswered = true }
            context.fireChannelRead(data)
        case .body:
            if !answeredHere { context.fireChannelRead(data) }
        case .end:
            lastActivity = .now()
            reading = false
            if answeredHere {
                answeredHere = false
            } else {
                context.fireChannelRead(data)
            }
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let response):
            if !response.isKeepAlive { closeWhenAnswered = true }
        case .body:
            break
        case .end:
            pending = max(0, pending - 1)
            lastActivity = .now()
            if closeWhenAnswered, pending == 0 {
                // Closed once the answer is on the wire: closing now would drop what the socket has not taken yet.
                let written = promise ?? context.eventLoop.makePromise()
                context.write(data, promise: written)
                written.futureResult.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
                return
            }
        }
        context.write(data, promise: promise)
    }

    private func cancelIdleCheck() {
        idleCheck?.cancel()
        idleCheck = nil
    }

    /// Closes the connection when it has had no request in progress for the idle timeout, or
    /// a request has not arrived whole within the idle timeout of its head. A request the
    /// application is still answering keeps the connection open.
    private func scheduleIdleCheck(context: ChannelHandlerContext, at start: NIODeadline) {
        guard let idleTimeout, idleCheck == nil else { return }
        let loopBound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        idleCheck = context.eventLoop.scheduleTask(deadline: start + idleTimeout) {
            let (handler, context) = loopBound.value
            handler.idleCheck = nil
            let busy = handler.pending > 0 && !handler.reading
            if !busy, NIODeadline.now() >= handler.lastActivity + idleTimeout {
                context.close(promise: nil)
            } else {
                handler.scheduleIdleCheck(context: context, at: busy ? .now() : handler.lastActivity)
            }
        }
    }
}

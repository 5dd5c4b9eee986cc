import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1
import RatesIngest

/// Hummingbird's HTTP/1.1 channel with ``FastPathHandler`` right behind the HTTP decoder.
///
/// The handler goes in front of the conversion to `HTTPTypes`, so a prepared answer costs
/// neither that conversion nor the framework's response path, and its bytes go to the socket
/// past NIO's response encoder. That encoder, as `configureHTTPServerPipeline` pairs it with
/// the decoder, queues every request's method to frame `HEAD` answers; answers written past it
/// would never leave that queue. So the decoder and encoder are unpaired, with the framework's
/// limits, and ``FastPathHandler`` keeps the methods of the requests it hands on and leaves out
/// the body of a `HEAD` answer itself.
///
/// The rest of the framework's pipeline (the conversion to `HTTPTypes`, its connection state,
/// the async channel its request loop reads) is added when the connection first hands a request
/// on to the application, and the loop then starts as a task of ``ApplicationConnections``. A
/// connection the fast path answers whole, or one carrying an event stream, has neither, nor a
/// task: the framework's task for the connection ends at once (``handle(value:logger:)``).
struct FastPathHTTP1Channel: HTTPChannelHandler {
    struct Value: ServerChildChannelValue {
        let channel: any Channel
    }

    let base: HTTP1Channel
    let fastPath: FastPath?
    let idleTimeout: TimeAmount?
    let connections: ApplicationConnections

    /// - Parameters:
    ///   - base: The framework's channel: its responder, request loop, decoder limits and extra
    ///     handlers; give it no idle timeout, since ``FastPathHandler`` keeps that (the
    ///     framework's handler never sees the requests answered in front of it).
    ///   - fastPath: What answers prepared requests; `nil` answers none (every request goes to the application).
    ///   - idleTimeout: How long a connection may stay without a request in progress.
    ///   - connections: Where the request loops run.
    init(base: HTTP1Channel, fastPath: FastPath?, idleTimeout: TimeAmount?, connections: ApplicationConnections) {
        self.base = base
        self.fastPath = fastPath
        self.idleTimeout = idleTimeout
        self.connections = connections
    }

    /// The limits `base` gives its request decoder.
    private var decoderLimits: NIOHTTPDecoderLimitConfiguration {
        var limits = NIOHTTPDecoderLimitConfiguration()
        limits.maxHeaderFieldSize = base.configuration.httpDecoder.maxHeaderFieldSize
        limits.maxHeaderListSize = base.configuration.httpDecoder.maxHeaderListSize
        limits.maxHeaderFieldCount = base.configuration.httpDecoder.maxHeaderFieldCount
        return limits
    }

    var responder: HTTPChannelHandler.Responder { base.responder }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            // Each connection keeps its read buffer between reads: 1 KiB holds a request's head, where
            // NIO's default of 2 KiB doubles what an idle connection or an event stream holds; a
            // larger request still gets larger reads, as the allocator adapts.
            try channel.syncOptions?.setOption(ChannelOptions.recvAllocator, value: AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 1024, maximum: 65_536))
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandler(HTTPResponseEncoder())
            try pipeline.addHandler(ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes, limitConfiguration: decoderLimits)))
            try pipeline.addHandler(FastPathHandler(fastPath: fastPath, idleTimeout: idleTimeout) { startRequestLoop(on: channel, logger: logger) })
            return Value(channel: channel)
        }
    }

    /// Adds the rest of the framework's HTTP/1.1 pipeline behind ``FastPathHandler`` (as
    /// `HTTP1Channel.setup` does behind the decoder) and starts the request loop on its async
    /// channel; `false` once the server is shutting down.
    private func startRequestLoop(on channel: any Channel, logger: Logger) -> Bool {
        (try? connections.start {
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try pipeline.addHandlers(base.configuration.additionalChannelHandlers())
            try pipeline.addHandler(HTTPConnectionStateHandler(idleTimeout: nil, logger: logger))
            let connection = try HTTP1Channel.Value(
                wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
            return { [base] in await base.handle(value: connection, logger: logger) }
        }) ?? false
    }

    /// Nothing to wait for: a connection's request loop, if it ever needs one, runs in ``ApplicationConnections``.
    func handle(value: Value, logger: Logger) async {}
}

/// A connection's fast path and idle timeout: answers what ``FastPath`` can on the event loop,
/// carries an event stream (`/v1/events`) as chunks written on the event loop, passes the rest on,
/// and closes the connection once it has been idle for the timeout.
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
    /// When the application's answer being written last made progress (its head, or a part of its
    /// body, went out), while one is being written: a client that stops reading a long answer
    /// (a streamed range, an event stream) stalls it, and it must not hold the connection, nor the
    /// permit a heavy answer holds, for longer than the idle timeout.
    private var answerProgress: NIODeadline?
    private var idleCheck: Scheduled<Void>?
    /// The methods of the requests handed to the application, oldest first, to frame their answers.
    private var handedOnMethods = CircularBuffer<HTTPMethod>(initialCapacity: 2)
    /// Starts the connection's request loop in the application, before the first request handed
    /// on to it (``FastPathHTTP1Channel``): `false` when it cannot (the server is shutting down);
    /// `nil` once called.
    private var startRequestLoop: (() -> Bool)?
    /// Whether the answer being written answers a `HEAD` (or `CONNECT`): its body is left out.
    private var leavesOutBody = false
    /// The response encoder's context: answers given here are written from there, as bytes.
    private var encoderContext: ChannelHandlerContext?
    /// The subscription of the `/v1/events` stream this connection carries, once it carries one:
    /// the connection then serves nothing else, and reads nothing more.
    private var eventStream: UUID?

    /// - Parameter startRequestLoop: Starts the connection's request loop in the application, on
    ///   the event loop, before the first request handed on to it; `false` when it cannot.
    init(fastPath: FastPath?, idleTimeout: TimeAmount?, startRequestLoop: @escaping () -> Bool) {
        self.fastPath = fastPath
        self.idleTimeout = idleTimeout
        self.startRequestLoop = startRequestLoop
    }

    func handlerAdded(context: ChannelHandlerContext) {
        encoderContext = try? context.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self)
        if context.channel.isActive { scheduleIdleCheck(context: context, at: lastActivity) }
    }

    func channelActive(context: ChannelHandlerContext) {
        scheduleIdleCheck(context: context, at: .now())
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelIdleCheck()
        leaveEventStream()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelIdleCheck()
        leaveEventStream()
    }

    /// A server shutting down asks its connections to wind up: an event stream ends at once, an
    /// idle connection closes, and a busy one once its answers are written. A client that ends its
    /// side of the connection (closing it, as most do after their last request; the server lets
    /// a client half-close) gets the answers in progress, and then the connection closes: left
    /// open, each such connection would hold a descriptor and its buffers until the idle timeout.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed, eventStream == nil {
            if pending == 0 { closeOnceWritten(context: context) } else { closeWhenAnswered = true }
        }
        if event is ChannelShouldQuiesceEvent {
            if let encoderContext, eventStream != nil {
                endEventStream(encoderContext)
            } else if pending == 0, !reading {
                context.close(promise: nil)
            } else {
                closeWhenAnswered = true
            }
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // A connection carrying an event stream reads nothing more.
        guard eventStream == nil else { return }
        switch unwrapInboundIn(data) {
        case .head(let request):
            lastActivity = .now()
            reading = true
            if pending == 0, let encoderContext, let fastPath, fastPath.isEventStream(request),
               openEventStream(request, fastPath: fastPath, context: context, encoder: encoderContext) {
                answeredHere = true
                return
            }
            if pending == 0, let encoderContext, let answer = fastPath?.answer(to: request, allocator: context.channel.allocator) {
                answeredHere = true
                // Head and body as two buffers, which the socket takes in one vectored write: the body is not copied.
                encoderContext.write(NIOAny(IOData.byteBuffer(answer.head)), promise: nil)
                if let body = answer.body { encoderContext.write(NIOAny(IOData.byteBuffer(body)), promise: nil) }
                encoderContext.flush()
                return
            }
            if let start = startRequestLoop {
                startRequestLoop = nil
                guard start() else { return context.close(promise: nil) }
            }
            pending += 1
            handedOnMethods.append(request.method)
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
            answerProgress = .now()
            if !response.isKeepAlive { closeWhenAnswered = true }
            // A non-final 1xx answer is followed by the answer proper (as NIO's encoder counts them).
            if !(100..<200).contains(response.status.code) || response.status.code == 101 {
                let method = handedOnMethods.popFirst()
                leavesOutBody = method == .HEAD || method == .CONNECT
            }
        case .body:
            answerProgress = .now()
            if leavesOutBody {
                promise?.succeed(())
                return
            }
        case .end:
            pending = max(0, pending - 1)
            lastActivity = .now()
            answerProgress = nil
            if leavesOutBody, let encoderContext {
                // No end either (a chunked one would be body bytes): an empty write keeps the order.
                leavesOutBody = false
                return finish(context: context, writing: { encoderContext.write(NIOAny(IOData.byteBuffer(ByteBuffer())), promise: $0) }, promise: promise)
            }
            return finish(context: context, writing: { context.write(data, promise: $0) }, promise: promise)
        }
        context.write(data, promise: promise)
    }

    /// Closes the connection once what was written to it is on the wire: an empty write completes after them.
    private func closeOnceWritten(context: ChannelHandlerContext) {
        guard let encoderContext else { return context.close(promise: nil) }
        let written = context.eventLoop.makePromise(of: Void.self)
        encoderContext.writeAndFlush(NIOAny(IOData.byteBuffer(ByteBuffer())), promise: written)
        written.futureResult.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }

    /// Writes an answer's end with `writing`, then closes the connection if it is to end once answered.
    private func finish(context: ChannelHandlerContext, writing: (EventLoopPromise<Void>?) -> Void, promise: EventLoopPromise<Void>?) {
        writing(promise)
        // Closed once the answer is on the wire: closing now would drop what the socket has not taken yet.
        if closeWhenAnswered, pending == 0 { closeOnceWritten(context: context) }
    }

    // MARK: - Event streams

    /// Carries `/v1/events` on this connection: subscribes (unless the cap is reached: then `false`,
    /// and the application refuses the request as the route does), then writes the answer's head
    /// and the stream's opening. Each publication and keep-alive tick is written as a chunk on
    /// this connection's event loop.
    private func openEventStream(_ request: HTTPRequestHead, fastPath: FastPath, context: ChannelHandlerContext, encoder: ChannelHandlerContext) -> Bool {
        let eventLoop = context.eventLoop
        let loopBound = NIOLoopBound((handler: self, encoder: encoder), eventLoop: eventLoop)
        let subscriber = PublicationEvents.Subscriber(
            receive: { event in
                eventLoop.execute {
                    let (handler, encoder) = loopBound.value
                    handler.writeEventChunk(EventStreamFrames.frame(event), isKeepAlive: event == nil, encoder)
                }
            },
            finish: {
                eventLoop.execute {
                    let (handler, encoder) = loopBound.value
                    handler.endEventStream(encoder)
                }
            })
        // Subscribed before saying so: a client that has read ": connected" misses no later publication.
        guard let id = fastPath.state.events.subscribe(limit: fastPath.maxEventSubscribers, subscriber) else { return false }
        eventStream = id
        reading = false
        // An event stream is never idle: its keep-alives find a client that stopped reading.
        cancelIdleCheck()
        encoder.write(NIOAny(IOData.byteBuffer(fastPath.eventStreamHead(for: request, allocator: context.channel.allocator))), promise: nil)
        writeEventChunk(EventStreamFrames.opening, isKeepAlive: false, encoder)
        return true
    }

    /// Writes `text` as one chunk of the event stream. A keep-alive that finds the connection
    /// still unable to take more (its client stopped reading) ends it instead: a stuck client
    /// holds its connection no longer than a keep-alive interval or two.
    private func writeEventChunk(_ text: String, isKeepAlive: Bool, _ encoder: ChannelHandlerContext) {
        guard eventStream != nil else { return }
        if isKeepAlive, !encoder.channel.isWritable { return endEventStream(encoder) }
        var chunk = encoder.channel.allocator.buffer(capacity: text.utf8.count + 12)
        chunk.writeString(String(text.utf8.count, radix: 16))
        chunk.writeStaticString("\r\n")
        chunk.writeString(text)
        chunk.writeStaticString("\r\n")
        encoder.writeAndFlush(NIOAny(IOData.byteBuffer(chunk)), promise: nil)
    }

    /// Ends the event stream this connection carries, if any: its last chunk, then the connection;
    /// at once when the connection cannot take the chunk (its client stopped reading).
    private func endEventStream(_ encoder: ChannelHandlerContext) {
        guard eventStream != nil else { return }
        leaveEventStream()
        guard encoder.channel.isWritable else { return encoder.close(promise: nil) }
        encoder.writeAndFlush(NIOAny(IOData.byteBuffer(ByteBuffer(staticString: "0\r\n\r\n")))).assumeIsolated().whenComplete { _ in
            encoder.close(promise: nil)
        }
    }

    /// Unsubscribes the event stream this connection carries, if any.
    private func leaveEventStream() {
        guard let id = eventStream else { return }
        eventStream = nil
        fastPath?.state.events.unsubscribe(id)
    }

    private func cancelIdleCheck() {
        idleCheck?.cancel()
        idleCheck = nil
    }

    /// Closes the connection when it has had no request in progress for the idle timeout, when
    /// a request has not arrived whole within the idle timeout of its head, or when an answer
    /// being written has made no progress for the idle timeout (its client stopped reading). A
    /// request the application is still working on, before its answer's head, keeps the connection open.
    private func scheduleIdleCheck(context: ChannelHandlerContext, at start: NIODeadline) {
        guard let idleTimeout, idleCheck == nil, eventStream == nil else { return }
        let loopBound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        idleCheck = context.eventLoop.scheduleTask(deadline: start + idleTimeout) {
            let (handler, context) = loopBound.value
            handler.idleCheck = nil
            let now = NIODeadline.now()
            let busy = handler.pending > 0 && !handler.reading
            if let progress = handler.answerProgress, busy {
                guard now < progress + idleTimeout else { return context.close(promise: nil) }
                handler.scheduleIdleCheck(context: context, at: progress)
            } else if !busy, now >= handler.lastActivity + idleTimeout {
                context.close(promise: nil)
            } else {
                handler.scheduleIdleCheck(context: context, at: busy ? now : handler.lastActivity)
            }
        }
    }
}

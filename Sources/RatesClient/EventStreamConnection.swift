import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What an open `/v1/events` connection delivers.
enum EventStreamMessage: Sendable, Equatable {
    /// The server accepted the connection (200, `text/event-stream`).
    case opened
    /// A complete event.
    case event(ServerSentEvent)
    /// The server's reconnection advice (`retry:`).
    case retry(Duration)
}

/// Why an event stream could not be opened.
enum EventStreamError: Error, Sendable, Equatable {
    /// The server answered with another status (404: it has no event stream).
    case status(Int)
}

/// A Server-Sent Events connection over `URLSessionDataDelegate`, which delivers the body in
/// chunks on Linux (swift-corelibs-foundation has no `URLSession.bytes(for:)`) and on Apple
/// platforms alike.
enum EventStreamConnection {
    /// Opens `request` and streams its messages until the server closes it (the stream
    /// finishes), it fails (finishes throwing), or the consumer stops iterating (the
    /// connection is cancelled).
    static func messages(for request: URLRequest, configuration: URLSessionConfiguration) -> AsyncThrowingStream<EventStreamMessage, any Error> {
        AsyncThrowingStream(bufferingPolicy: .bufferingNewest(64)) { continuation in
            let delegate = Delegate(continuation: continuation)
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
            let task = session.dataTask(with: request)
            continuation.onTermination = { _ in
                task.cancel()
                session.invalidateAndCancel()
            }
            task.resume()
        }
    }

    /// Receives the response and its chunks on the session's serial delegate queue.
    final class Delegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        // Mutable state is touched only on the session's serial delegate queue.
        private var parser = ServerSentEventParser()
        private var lastRetry: Duration?
        private let continuation: AsyncThrowingStream<EventStreamMessage, any Error>.Continuation

        init(continuation: AsyncThrowingStream<EventStreamMessage, any Error>.Continuation) {
            self.continuation = continuation
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
        ) {
            guard let http = response as? HTTPURLResponse, http.statusCode == 200 else {
                continuation.finish(throwing: EventStreamError.status((response as? HTTPURLResponse)?.statusCode ?? 0))
                completionHandler(.cancel)
                return
            }
            continuation.yield(.opened)
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            for event in parser.feed(data) { continuation.yield(.event(event)) }
            if let retry = parser.reconnectionTime, retry != lastRetry {
                lastRetry = retry
                continuation.yield(.retry(retry))
            }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            continuation.finish(throwing: error)
            session.finishTasksAndInvalidate()
        }
    }
}

/// A provider whose server answers an error status, not a document, when asked for a day it
/// published nothing for (a holiday): the Central Bank of the Republic of Türkiye's per-day
/// `kurlar/YYYYMM/DDMMYYYY.xml` files answer 404 there.
///
/// ``ProviderClient`` reads such an answer as "no publication for that request", not as a failed
/// fetch. Every other provider's 404 fails the fetch, as any error status does.
///
/// A provider opts in with an empty conformance (`extension TCMBProvider: NoPublicationStatus {}`)
/// and keeps the default (404 means no publication), or narrows it to the requests it means it for.
public protocol NoPublicationStatus: RatesProvider {
    /// Whether `httpStatus` in answer to `request` means that nothing was published for what the
    /// request asks (a holiday), rather than that the request failed.
    func meansNoPublication(httpStatus: Int, for request: ProviderRequest) -> Bool
}

extension NoPublicationStatus {
    /// 404 means no publication, whatever the request.
    public func meansNoPublication(httpStatus: Int, for request: ProviderRequest) -> Bool { httpStatus == 404 }
}

extension RatesProvider {
    /// Whether `httpStatus` in answer to `request` means "no publication" for this provider
    /// (see ``NoPublicationStatus``); `false` for a provider that does not conform.
    func answerMeansNoPublication(httpStatus: Int, for request: ProviderRequest) -> Bool {
        (self as? any NoPublicationStatus)?.meansNoPublication(httpStatus: httpStatus, for: request) ?? false
    }
}

/// The bank answers 404 for a working day without a bulletin (a Turkish holiday), as its adapter documents.
extension TCMBProvider: NoPublicationStatus {}

/// A provider whose answer of a layout it knows but without a day (a span of weekends and holidays)
/// means no publication for that request rather than an empty answer (``UpstreamDataError/empty``).
///
/// A provider opts in by conforming (`public struct BOCProvider: RatesProvider, EmptyAnswerIsNoPublication`).
public protocol EmptyAnswerIsNoPublication: RatesProvider {}

extension EmptyAnswerIsNoPublication {
    /// `true`: an answer without a day is no publication.
    public var emptyAnswerIsNoPublication: Bool { true }
}

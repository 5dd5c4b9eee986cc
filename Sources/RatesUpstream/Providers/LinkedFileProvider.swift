/// A source whose files are named only on an index page (their addresses change with each update),
/// each file holding every day of its period: an adapter says where the page is and where the page
/// linked the file when the adapter was written, and reads the page's links for its requests.
///
/// A fetch first reads the page (``sessionRequest(for:)``), then asks for what it links
/// (``RatesProvider/requests(for:session:)``). Without the page (`rates-relay import`), the request is
/// the file at the address the page gave when the adapter was written (``lastKnownPath``), for the
/// newest publication and any range alike. A range that ends before it starts asks for nothing.
protocol IndexPageProvider: RatesProvider {
    /// The page that links the files, under ``RatesProvider/baseURL``.
    static var indexPath: String { get }
    /// Where the page linked the file when the adapter was written, under ``RatesProvider/baseURL``.
    static var lastKnownPath: String { get }
}

extension IndexPageProvider {
    public func sessionRequest(for window: FetchWindow) -> ProviderRequest? {
        ProviderRequest(url: baseURL + Self.indexPath)
    }

    public func requests(for window: FetchWindow) -> [ProviderRequest] {
        window.wholeHistory([ProviderRequest(url: baseURL + Self.lastKnownPath)])
    }
}

/// A source whose one current file, holding every day, is linked from an index page
/// (``IndexPageProvider``): the adapter also says which of the page's links is the file.
///
/// The fetch asks for the one file the page links where ``isLinkedFile(_:)`` holds
/// (``HTMLLinks/onlyURL(in:where:site:base:files:)``: a page that links none or several fails the
/// fetch as a layout error), for the newest publication and any range alike.
protocol LinkedFileProvider: IndexPageProvider {
    /// The files ``isLinkedFile(_:)`` picks, in words, for the error when the page links none or several
    /// (`daily workbooks (Cotation-DZD-…-journalier.xlsx)`).
    static var linkedFiles: String { get }
    /// Whether a link of the page is to the file.
    static func isLinkedFile(_ link: HTMLLinks.Link) -> Bool
}

extension LinkedFileProvider {
    public func requests(for window: FetchWindow, session: ProviderSession) throws(UpstreamDataError) -> [ProviderRequest] {
        if case .range(let first, let last) = window, first > last { return [] }
        let url = try HTMLLinks.onlyURL(
            in: session.text, where: Self.isLinkedFile, site: identity.baseURL, base: baseURL, files: Self.linkedFiles)
        return [ProviderRequest(url: url)]
    }
}

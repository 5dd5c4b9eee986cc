import Foundation

/// The links of an HTML page (`<a href="…">text</a>`), for the sources whose current file is named
/// only on an index page (``RatesProvider/sessionRequest(for:)``).
///
/// Not an HTML parser: it finds `<a` tags and their `href` attribute (double- or single-quoted),
/// and the anchor's text up to `</a>` with tags dropped and white space collapsed. Character
/// references other than `&amp;` are left as written. That is all an index page's link to a file needs.
enum HTMLLinks {
    /// One link: its `href` with its character references read (`&amp;` as `&`, `&#226;` as `â`:
    /// ``HTMLText/decodingReferences(_:)``) and its text.
    struct Link: Equatable {
        var href: String
        var text: String
    }

    /// Every `<a href>` of `page`, in document order.
    static func links(in page: String) -> [Link] {
        var links: [Link] = []
        var search = page.startIndex
        while let open = page.range(of: "<a", options: .caseInsensitive, range: search..<page.endIndex) {
            search = open.upperBound
            guard search < page.endIndex, page[search].isWhitespace, let close = page.range(of: ">", range: search..<page.endIndex) else { continue }
            let tag = page[open.upperBound..<close.lowerBound]
            search = close.upperBound
            guard let href = attribute("href", in: tag) else { continue }
            let end = page.range(of: "</a", options: .caseInsensitive, range: search..<page.endIndex)?.lowerBound ?? page.endIndex
            links.append(Link(href: HTMLText.decodingReferences(href), text: text(page[search..<end])))
        }
        return links
    }

    /// The URL of the one file `page` links where `isWanted` holds (links to it more than once count once).
    ///
    /// - Throws: `UpstreamDataError.unexpectedLayout` saying how many such files it links (`files` names
    ///   them) when that is not exactly one, or the link is relative (see ``url(_:site:base:)``).
    static func onlyURL(
        in page: String, where isWanted: (Link) -> Bool, site: String, base: String, files: String
    ) throws(UpstreamDataError) -> String {
        let hrefs = Set(links(in: page).filter(isWanted).map(\.href))
        guard hrefs.count == 1, let url = url(hrefs.first!, site: site, base: base) else {
            throw .layout("the page links \(hrefs.count) \(files), expected one")
        }
        return url
    }

    /// The URL to ask for a link found on a page of `site` (`https://cbs.gov.ws`, no trailing slash), when
    /// the adapter's requests go to `base` (the site itself, a mirror or a test server): a link to the site
    /// (`https://cbs.gov.ws/media/x.xlsx`) or from its root (`/media/x.xlsx`) is asked under `base`, a link
    /// to another host as it is; `nil` for a relative link (`x.xlsx`), which index pages of files do not use.
    static func url(_ href: String, site: String, base: String) -> String? {
        for scheme in ["https://", "http://"] {
            let host = site.hasPrefix("https://") ? scheme + site.dropFirst("https://".count) : site
            if href.hasPrefix(host + "/") { return base + href.dropFirst(host.count) }
        }
        if href.hasPrefix("https://") || href.hasPrefix("http://") { return href }
        if href.hasPrefix("/") && !href.hasPrefix("//") { return base + href }
        return nil
    }

    /// The value of attribute `name` in a tag's text.
    private static func attribute(_ name: String, in tag: Substring) -> String? {
        var rest = tag[...]
        while let found = rest.range(of: name, options: .caseInsensitive) {
            let before = found.lowerBound == tag.startIndex ? " " : tag[tag.index(before: found.lowerBound)]
            var index = found.upperBound
            rest = rest[found.upperBound...]
            guard before.isWhitespace else { continue }
            while index < tag.endIndex, tag[index] == " " { index = tag.index(after: index) }
            guard index < tag.endIndex, tag[index] == "=" else { continue }
            index = tag.index(after: index)
            while index < tag.endIndex, tag[index] == " " { index = tag.index(after: index) }
            guard index < tag.endIndex, tag[index] == "\"" || tag[index] == "'" else { continue }
            let quote = tag[index]
            let start = tag.index(after: index)
            guard let end = tag[start...].firstIndex(of: quote) else { return nil }
            return String(tag[start..<end])
        }
        return nil
    }

    /// Markup's text: tags dropped, white space collapsed to single spaces, trimmed.
    private static func text(_ markup: Substring) -> String {
        var text = ""
        var inTag = false
        for character in markup {
            if character == "<" {
                inTag = true
            } else if character == ">" {
                inTag = false
                text.append(" ")
            } else if !inTag {
                text.append(character)
            }
        }
        return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}

extension HTMLDocument {
    /// Whether any text of the page holds `phrase`: the message a source answers in place of a table
    /// (`There were no results.`, `Exhausted Resultset`).
    func hasText(containing phrase: String) -> Bool {
        tokens.contains { token in
            if case .text(let text) = token { text.contains(phrase) } else { false }
        }
    }
}

extension RandomAccessCollection where Index == Int {
    /// The index of the first element `belongsBefore` is false for, found by binary search: the
    /// elements it holds for must all come first (`{ $0 < key }` on a sorted collection: where `key`
    /// is or would go; `{ $0 <= key }`: just after it). `endIndex` when it holds for every element.
    @inlinable
    public func partitionPoint(where belongsBefore: (Element) -> Bool) -> Int {
        var low = startIndex
        var high = endIndex
        while low < high {
            let middle = (low + high) / 2
            if belongsBefore(self[middle]) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

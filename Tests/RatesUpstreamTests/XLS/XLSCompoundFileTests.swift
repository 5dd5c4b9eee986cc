@testable import RatesUpstream
import Testing

@Suite("XLS compound file")
struct XLSCompoundFileTests {
    /// A file of one 5000-byte stream: its sectors 0–9, the directory sector 10, the FAT sector 11.
    let single = XLSFixture.compoundFile([("Workbook", (0..<5000).map { UInt8($0 % 251) })])
    /// Where FAT entry `index` and directory entry `entry`'s field at `field` are in ``single``.
    func fatEntry(_ index: Int) -> Int { 512 + 11 * 512 + 4 * index }
    func directoryField(_ entry: Int, _ field: Int) -> Int { 512 + 10 * 512 + 128 * entry + field }

    /// `bytes` with the 32-bit field at `offset` set to `value`.
    func patched(_ bytes: [UInt8], _ offset: Int, _ value: UInt32) -> [UInt8] {
        var bytes = bytes
        bytes.replaceSubrange(offset..<offset + 4, with: XLSFixture.le32(value))
        return bytes
    }

    /// The text of the `.unreadableArchive` error reading `bytes` throws; `nil` when it reads or throws another.
    func damage(_ bytes: [UInt8]) -> String? {
        do {
            _ = try CompoundFile(bytes)
            return nil
        } catch {
            if case .unreadableArchive(let text) = error { return text }
            return nil
        }
    }

    @Test("reads the streams of the root storage: those under 4096 bytes from the mini stream, the others from their sectors, by name in any letter case")
    func streams() throws {
        let small = (0..<200).map { UInt8($0) }
        let large = (0..<5000).map { UInt8($0 % 7) }
        let file = try CompoundFile(XLSFixture.compoundFile([("Small", small), ("Workbook", large), ("Empty", [])]))
        #expect(file.streamNames == ["Small", "Workbook", "Empty"])
        #expect(file.stream(named: "SMALL") == small)
        #expect(file.stream(named: "workbook") == large)
        #expect(file.stream(named: "Empty") == [])
        #expect(file.stream(named: "Book") == nil)
        #expect(try CompoundFile(single).stream(named: "Workbook")?.count == 5000)
    }

    @Test("a chain that loops, points past the file or at a free sector, or ends before its stream's size is rejected")
    func brokenChains() {
        #expect(damage(patched(single, fatEntry(5), 2))?.contains("back to sector 2: a loop") == true)
        #expect(damage(patched(single, fatEntry(5), 5))?.contains("a loop") == true)
        #expect(damage(patched(single, fatEntry(5), 500))?.contains("past its") == true)
        #expect(damage(patched(single, fatEntry(5), CompoundFile.freeSector))?.contains("free or reserved") == true)
        #expect(damage(patched(single, fatEntry(5), CompoundFile.endOfChain))?.contains("after 6 sectors") == true)
        // The directory's own chain, looped onto itself.
        #expect(damage(patched(single, fatEntry(10), 10))?.contains("the directory back to sector 10") == true)

        // The mini FAT: a 200-byte stream in mini sectors 0–3; the mini FAT is sector 1.
        let mini = XLSFixture.compoundFile([("Small", [UInt8](repeating: 7, count: 200))])
        #expect(damage(patched(mini, 512 + 512 + 4 * 1, 0))?.contains("a loop") == true)
        #expect(damage(patched(mini, 512 + 512 + 4 * 1, 40))?.contains("past its") == true)
    }

    @Test("a sector two streams would share, a directory tree that loops, a size past the file and a damaged header are rejected")
    func brokenStructure() {
        // Streams A (sectors 0–9) and B (10–19): B made to start at A's first sector.
        let two = XLSFixture.compoundFile([("A", [UInt8](repeating: 1, count: 5000)), ("B", [UInt8](repeating: 2, count: 5000))])
        #expect(damage(patched(two, 512 + 20 * 512 + 2 * 128 + 116, 0))?.contains("gives sector 0 both to") == true)

        #expect(damage(patched(single, directoryField(1, 72), 1))?.contains("comes back to entry 1") == true)
        #expect(damage(patched(single, directoryField(1, 72), 9))?.contains("not an entry in use") == true)
        #expect(damage(patched(single, directoryField(1, 120), 10_000_000))?.contains("more than its 12 sectors") == true)
        #expect(damage(patched(single, 44, 200))?.contains("declares 200 FAT sectors") == true)

        var bigEndian = single
        bigEndian[28] = 0xFF
        #expect(damage(bigEndian)?.contains("little-endian") == true)
        var largeSectors = single
        largeSectors[30] = 12
        #expect(damage(largeSectors)?.contains("version 3") == true)
        #expect(damage(Array(single.prefix(single.count - 100)))?.contains("cut short") == true)
        #expect(damage(Array(ProviderFixture.htmlErrorPage)) == "not a legacy Excel workbook: no compound file (OLE2) header")
        #expect(throws: UpstreamDataError.empty) { try CompoundFile([]) }
    }
}

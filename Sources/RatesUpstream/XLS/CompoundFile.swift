/// The streams of a Compound File Binary file ([MS-CFB], "OLE2") held in memory, read strictly: what a
/// legacy Excel workbook (`.xls`) is packed in.
///
/// The file is a header and sectors of 512 bytes (version 3) or 4096 bytes (version 4). The header lists
/// the sectors of the file allocation table (FAT), the first 109 itself and the rest through a chain of
/// DIFAT sectors; the FAT chains the sectors of each stream and of the directory. A stream smaller than
/// the 4096-byte cutoff lives instead in the mini stream (the root entry's stream) in 64-byte mini
/// sectors, chained by the mini FAT. The directory is a tree of 128-byte entries; only the streams
/// directly in the root storage are read (``stream(named:)``), each whole when the file is opened.
///
/// Every chain walk is bounded by the number of sectors the file (or the mini stream) holds, and a
/// sector seen twice in one chain is a loop: both are errors, as is a chain that points past the file,
/// at a free or reserved sector, or ends before its stream's size is covered, and a sector that two
/// streams (or a stream and the FAT, the directory or the mini FAT) would share. A stream takes as
/// many sectors of its chain as its size needs; a chain that goes on past them is not read further.
/// Some writers leave the root entry's chain unterminated that way (the Banco Central de Bolivia's
/// daily tables chain its two mini stream sectors on into the `Workbook` stream's): the sectors past the
/// size are the next stream's own, and the sharing check proves no sector is read as two streams' data.
/// A root entry of size 0 has no mini stream, whatever start sector it names.
///
/// Errors are `UpstreamDataError`: `.empty` for no bytes, `.unreadableArchive` for anything else
/// (not a compound file, a file cut short, a damaged header, FAT, directory or chain).
struct CompoundFile {
    /// The size below which a stream lives in the mini stream, fixed by the format.
    static let miniStreamCutoff = 4096
    static let miniSectorSize = 64
    static let signature: [UInt8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]

    /// Special values in the FAT and the mini FAT.
    static let endOfChain: UInt32 = 0xFFFF_FFFE
    static let freeSector: UInt32 = 0xFFFF_FFFF
    static let fatSector: UInt32 = 0xFFFF_FFFD
    static let difatSector: UInt32 = 0xFFFF_FFFC

    /// The streams of the root storage by name as the directory spells it, and their bytes.
    private let streams: [(name: String, bytes: [UInt8])]

    /// The names of the streams in the root storage, in directory order.
    var streamNames: [String] { streams.map(\.name) }

    /// The bytes of the stream `name` in the root storage (names compare without regard to letter
    /// case, as the format compares them); `nil` when there is none.
    func stream(named name: String) -> [UInt8]? {
        streams.first { $0.name.uppercased() == name.uppercased() }?.bytes
    }

    /// Reads the header, the FAT, the directory, the mini FAT and every stream of the root storage.
    init(_ bytes: [UInt8]) throws(UpstreamDataError) {
        guard !bytes.isEmpty else { throw .empty }
        func damaged(_ text: String) -> UpstreamDataError { .unreadableArchive("the compound file (.xls) \(text)") }
        guard bytes.count >= 512, bytes[0..<8].elementsEqual(Self.signature) else {
            throw .unreadableArchive("not a legacy Excel workbook: no compound file (OLE2) header")
        }
        guard Self.uint16(bytes, 28) == 0xFFFE else { throw damaged("does not declare little-endian byte order") }
        let version = Self.uint16(bytes, 26)
        let sectorShift = Self.uint16(bytes, 30)
        guard (version == 3 && sectorShift == 9) || (version == 4 && sectorShift == 12) else {
            throw damaged("has version \(version) with sectors of 2^\(sectorShift) bytes; expected version 3 (512) or 4 (4096)")
        }
        guard Self.uint16(bytes, 32) == 6, Self.uint32(bytes, 56) == UInt32(Self.miniStreamCutoff) else {
            throw damaged("has a mini sector size or mini stream cutoff other than 64 and 4096 bytes")
        }
        let sectorSize = 1 << sectorShift
        // Sector n starts at (n + 1) * sectorSize: the header takes the first sector's room. A last sector
        // cut short by the writer still counts; whoever reads it checks it holds the bytes needed.
        let sectorCount = max(0, (bytes.count - sectorSize + sectorSize - 1) / sectorSize)
        let entriesPerSector = sectorSize / 4
        var owners = [String?](repeating: nil, count: sectorCount)
        // Every sector read is claimed for its owner, and read whole, or (a stream's, `whole` false) as far as the file holds it.
        func claim(_ sector: Int, for owner: String, whole: Bool = true) throws(UpstreamDataError) -> ArraySlice<UInt8> {
            if let other = owners[sector] { throw damaged("gives sector \(sector) both to \(other) and to \(owner)") }
            owners[sector] = owner
            let start = (sector + 1) * sectorSize
            guard !whole || start + sectorSize <= bytes.count else {
                throw damaged("is cut short: it ends inside sector \(sector), part of \(owner)")
            }
            return bytes[start..<min(start + sectorSize, bytes.count)]
        }

        // The FAT: its sectors are listed by the header (109 at most) and then by the DIFAT chain.
        let fatSectorCount = Int(Self.uint32(bytes, 44))
        guard fatSectorCount <= sectorCount else {
            throw damaged("declares \(fatSectorCount) FAT sectors, more than the \(sectorCount) sectors it holds")
        }
        var fatSectors = (0..<min(109, fatSectorCount)).map { Self.uint32(bytes, 76 + 4 * $0) }
        var difatSector = Self.uint32(bytes, 68)
        let difatSectorCount = Int(Self.uint32(bytes, 72))
        var difatSeen = 0
        while fatSectors.count < fatSectorCount {
            guard difatSeen < difatSectorCount, Int(difatSector) < sectorCount else {
                throw damaged("lists \(fatSectors.count) of its \(fatSectorCount) FAT sectors: its DIFAT chain ends or points past the file")
            }
            let sector = try claim(Int(difatSector), for: "the DIFAT")
            let listed = min(entriesPerSector - 1, fatSectorCount - fatSectors.count)
            fatSectors += (0..<listed).map { Self.uint32(sector, sector.startIndex + 4 * $0) }
            difatSector = Self.uint32(sector, sector.startIndex + 4 * (entriesPerSector - 1))
            difatSeen += 1
        }
        var fat: [UInt32] = []
        fat.reserveCapacity(fatSectorCount * entriesPerSector)
        for sector in fatSectors {
            guard Int(sector) < sectorCount else { throw damaged("lists FAT sector \(sector), past its \(sectorCount) sectors") }
            let data = try claim(Int(sector), for: "the FAT")
            fat += (0..<entriesPerSector).map { Self.uint32(data, data.startIndex + 4 * $0) }
        }

        // The directory.
        let directorySectors = try Self.chain(from: Self.uint32(bytes, 48), in: fat, limit: sectorCount, sectors: nil, of: "the directory", damaged)
        let directory = Array(try directorySectors.map { sector throws(UpstreamDataError) in try claim(sector, for: "the directory") }.joined())
        let entries = try (0..<directory.count / 128).map { index throws(UpstreamDataError) in
            try DirectoryEntry(directory[(index * 128)..<(index * 128 + 128)], index: index, version: version, damaged)
        }
        guard let root = entries.first, root.type == .root else { throw damaged("has no root entry first in its directory") }

        // The mini stream (the root entry's stream, in regular sectors) and the mini FAT that chains its mini sectors.
        let miniStream = try Self.read(
            from: root.start, size: root.size, in: fat, limit: sectorCount, sectorSize: sectorSize, of: "the mini stream",
            bytes: { sector throws(UpstreamDataError) in try claim(sector, for: "the mini stream", whole: false) }, damaged)
        var miniFAT: [UInt32] = []
        if Self.uint32(bytes, 64) > 0 {
            for sector in try Self.chain(from: Self.uint32(bytes, 60), in: fat, limit: sectorCount, sectors: nil, of: "the mini FAT", damaged) {
                let data = try claim(sector, for: "the mini FAT")
                miniFAT += (0..<entriesPerSector).map { Self.uint32(data, data.startIndex + 4 * $0) }
            }
        }
        let miniSectorCount = (miniStream.count + Self.miniSectorSize - 1) / Self.miniSectorSize
        var miniOwners = [String?](repeating: nil, count: miniSectorCount)

        // The root storage's children: a red-black tree of siblings (left, right) under the root's child.
        var children: [Int] = []
        var visited = Set<Int>()
        var pending = [root.child]
        while let id = pending.popLast() {
            guard id != DirectoryEntry.none else { continue }
            guard Int(id) < entries.count, entries[Int(id)].type != .unused, entries[Int(id)].type != .root else {
                throw damaged("has a directory tree that points to entry \(id), which is not an entry in use")
            }
            guard visited.insert(Int(id)).inserted else { throw damaged("has a directory tree that comes back to entry \(id)") }
            children.append(Int(id))
            pending += [entries[Int(id)].left, entries[Int(id)].right]
        }

        var streams: [(name: String, bytes: [UInt8])] = []
        for entry in children.sorted().map({ entries[$0] }) where entry.type == .stream {
            guard !streams.contains(where: { $0.name.uppercased() == entry.name.uppercased() }) else {
                throw damaged("holds two streams named \(entry.name)")
            }
            let what = "stream \(UpstreamDataError.quoted(entry.name))"
            let data: [UInt8]
            if entry.size < Self.miniStreamCutoff {
                data = try Self.read(
                    from: entry.start, size: entry.size, in: miniFAT, limit: miniSectorCount, sectorSize: Self.miniSectorSize, of: what,
                    bytes: { sector throws(UpstreamDataError) in
                        if let other = miniOwners[sector] { throw damaged("gives mini sector \(sector) both to \(other) and to \(what)") }
                        miniOwners[sector] = what
                        return miniStream[(sector * Self.miniSectorSize)..<min((sector + 1) * Self.miniSectorSize, miniStream.count)]
                    }, damaged)
            } else {
                data = try Self.read(
                    from: entry.start, size: entry.size, in: fat, limit: sectorCount, sectorSize: sectorSize, of: what,
                    bytes: { sector throws(UpstreamDataError) in try claim(sector, for: what, whole: false) }, damaged)
            }
            streams.append((entry.name, data))
        }
        self.streams = streams
    }

    // MARK: - Chains

    /// The sectors of the chain from `start` in `table`: the first `sectors` of them, or, when `sectors`
    /// is `nil`, all of them up to the end-of-chain mark. `limit` is how many sectors there are.
    static func chain(
        from start: UInt32, in table: [UInt32], limit: Int, sectors needed: Int?, of what: String,
        _ damaged: (String) -> UpstreamDataError
    ) throws(UpstreamDataError) -> [Int] {
        let bound = min(limit, table.count)
        var chain: [Int] = []
        var seen = Set<Int>()
        var current = start
        while needed.map({ chain.count < $0 }) ?? (current != endOfChain) {
            guard Int(current) < bound else {
                switch current {
                case endOfChain: throw damaged("ends \(what) after \(chain.count) sectors; its size needs \(needed ?? 0)")
                case freeSector, fatSector, difatSector: throw damaged("chains \(what) into a free or reserved sector")
                default: throw damaged("chains \(what) to sector \(current), past its \(bound) sectors")
                }
            }
            guard seen.insert(Int(current)).inserted else { throw damaged("chains \(what) back to sector \(current): a loop") }
            chain.append(Int(current))
            current = table[Int(current)]
        }
        return chain
    }

    /// The `size` bytes of a stream whose chain starts at `start` in `table`, sector by sector as
    /// `bytes` gives each (a sector the file ends inside comes short).
    static func read(
        from start: UInt32, size: Int, in table: [UInt32], limit: Int, sectorSize: Int, of what: String,
        bytes: (Int) throws(UpstreamDataError) -> ArraySlice<UInt8>, _ damaged: (String) -> UpstreamDataError
    ) throws(UpstreamDataError) -> [UInt8] {
        let needed = (size + sectorSize - 1) / sectorSize
        guard needed <= limit else { throw damaged("gives \(what) \(size) bytes, more than its \(limit) sectors of \(sectorSize) hold") }
        var data: [UInt8] = []
        data.reserveCapacity(needed * sectorSize)
        for sector in try chain(from: start, in: table, limit: limit, sectors: needed, of: what, damaged) {
            data += try bytes(sector)
        }
        guard data.count >= size else { throw damaged("is cut short: it ends inside \(what)") }
        return Array(data.prefix(size))
    }

    // MARK: - Directory entries

    /// One 128-byte directory entry.
    struct DirectoryEntry {
        enum Kind: UInt8 { case unused = 0, storage = 1, stream = 2, root = 5 }
        /// The "no sibling" or "no child" mark.
        static let none: UInt32 = 0xFFFF_FFFF

        var name: String
        var type: Kind
        var left: UInt32
        var right: UInt32
        var child: UInt32
        var start: UInt32
        var size: Int

        init(_ entry: ArraySlice<UInt8>, index: Int, version: Int, _ damaged: (String) -> UpstreamDataError) throws(UpstreamDataError) {
            let base = entry.startIndex
            guard let type = Kind(rawValue: entry[base + 66]) else { throw damaged("has directory entry \(index) of unknown type \(entry[base + 66])") }
            self.type = type
            let nameLength = CompoundFile.uint16(entry, base + 64)
            if type == .unused {
                name = ""
            } else {
                guard nameLength >= 2, nameLength <= 64, nameLength % 2 == 0 else {
                    throw damaged("has directory entry \(index) with a name of \(nameLength) bytes")
                }
                let units = (0..<(nameLength / 2 - 1)).map { UInt16(CompoundFile.uint16(entry, base + 2 * $0)) }
                name = String(decoding: units, as: UTF16.self)
            }
            left = CompoundFile.uint32(entry, base + 68)
            right = CompoundFile.uint32(entry, base + 72)
            child = CompoundFile.uint32(entry, base + 76)
            start = CompoundFile.uint32(entry, base + 116)
            // Version 3 files keep only 32 bits of size; writers leave the high half undefined.
            let high = version == 3 ? 0 : CompoundFile.uint32(entry, base + 124)
            guard high == 0 else { throw damaged("gives directory entry \(index) a size of 4 GB or more") }
            size = Int(CompoundFile.uint32(entry, base + 120))
        }
    }

    // MARK: - Little-endian fields

    static func uint16<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ offset: Int) -> Int where Bytes.Index == Int {
        Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
    }

    static func uint32<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ offset: Int) -> UInt32 where Bytes.Index == Int {
        UInt32(uint16(bytes, offset)) | UInt32(uint16(bytes, offset + 2)) << 16
    }
}

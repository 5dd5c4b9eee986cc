import Foundation

/// The real files the tests read (the ECB's, and one each from other central banks in
/// folders named after them), found from this source file's location.
package enum Fixtures {
    /// `Tests/Fixtures/NAME` in the package.
    package static func url(_ name: String) -> URL {
        packageRoot.appendingPathComponent("Tests/Fixtures").appendingPathComponent(name)
    }

    /// The bundled history: `Sources/RatesIngest/Resources/eurofxref-hist.zip`.
    package static var historyZip: URL {
        packageRoot.appendingPathComponent("Sources/RatesIngest/Resources/eurofxref-hist.zip")
    }

    /// The bytes of `Tests/Fixtures/NAME`.
    package static func data(_ name: String) throws -> Data {
        try Data(contentsOf: url(name))
    }

    /// The nearest directory above this file holding both `Package.swift` and `Tests/Fixtures`.
    ///
    /// The file is looked up as compiled and with symbolic links resolved, so a package that
    /// builds these tests through a symlink still finds the fixtures of the real package.
    package static let packageRoot: URL = {
        let file = URL(fileURLWithPath: #filePath)
        for start in [file.resolvingSymlinksInPath(), file] {
            var directory = start.deletingLastPathComponent()
            while directory.path != "/" {
                let fileManager = FileManager.default
                if fileManager.fileExists(atPath: directory.appendingPathComponent("Package.swift").path),
                    fileManager.fileExists(atPath: directory.appendingPathComponent("Tests/Fixtures").path)
                {
                    return directory
                }
                directory = directory.deletingLastPathComponent()
            }
        }
        fatalError("no directory above \(#filePath) holds Package.swift and Tests/Fixtures")
    }()
}

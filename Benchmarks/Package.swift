// swift-tools-version: 6.1
// Measurements of the RatesClient SDK against a live server, kept out of the main package so
// that `swift test` never builds them. Run through Scripts/measure-sync.sh.
import Foundation
import PackageDescription

// A path dependency is named after its folder, which is whatever the clone was called.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "rates-relay-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "..")],
    targets: [
        .executableTarget(
            name: "client-sync-benchmark",
            dependencies: [.product(name: "RatesClient", package: root), .product(name: "RatesCore", package: root)],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("MemberImportVisibility")]
        )
    ]
)

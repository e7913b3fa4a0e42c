// swift-tools-version:6.0
// The price of starting any Swift program, for Scripts/bench: a static hello world, built with
// the same flags as `make build` builds locate. The floor of `locate --once` is the C POLL client
// plus this start. A benchmark peer, not product code.
import PackageDescription

let package = Package(name: "swift-start", targets: [.executableTarget(name: "swift-start")], swiftLanguageModes: [.v6])

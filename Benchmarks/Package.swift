// swift-tools-version: 6.1
// Benchmarks of otc-prompt, in a package of their own so the main build stays lean.
// SPDX-License-Identifier: GPL-3.0-or-later
import PackageDescription

let package = Package(
    name: "otc-prompt-benchmarks",
    dependencies: [
        .package(name: "otc-prompt", path: ".."),
        // In-process figures (swift package benchmark). The malloc interposer trait stays on: it
        // gives the malloc counts; with Swift 6.3 it replaces jemalloc (the backend on <= 6.2).
        .package(url: "https://github.com/ordo-one/package-benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // libespeak-ng for the anchor only, under its own module name.
        .systemLibrary(name: "CEspeakAnchor", pkgConfig: "espeak-ng"),
        // espeak_Cancel in AUDIO_OUTPUT_PLAYBACK mode: the anchor of the interruption figure.
        .executableTarget(name: "espeak-cancel-anchor", dependencies: ["CEspeakAnchor"]),
        // A sink wrapper that timestamps the writer's calls, and medians/percentiles.
        .target(name: "SpeechTiming", dependencies: [.product(name: "OTCPromptSpeech", package: "otc-prompt")]),
        // The speech figures as a plain report (burst, readback length, start-up).
        .executableTarget(
            name: "speech-benchmark",
            dependencies: ["SpeechTiming", .product(name: "OTCPromptSpeech", package: "otc-prompt")]
        ),
        // Key -> first sample and key -> stopped under package-benchmark (percentiles, thresholds).
        .executableTarget(
            name: "SpeechLatency",
            dependencies: [
                "SpeechTiming", .product(name: "OTCPromptSpeech", package: "otc-prompt"),
                .product(name: "Benchmark", package: "package-benchmark"),
            ],
            path: "Benchmarks/SpeechLatency",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
    ]
)

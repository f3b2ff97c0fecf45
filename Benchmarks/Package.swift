// swift-tools-version: 6.1
// Benchmarks of otc-prompt, in a package of their own so the main build stays lean.
// SPDX-License-Identifier: GPL-3.0-or-later
import PackageDescription

let package = Package(
    name: "otc-prompt-benchmarks",
    dependencies: [
        .package(name: "otc-prompt", path: "..")
    ],
    targets: [
        // libespeak-ng for the anchor only, under its own module name.
        .systemLibrary(name: "CEspeakAnchor", pkgConfig: "espeak-ng"),
        // espeak_Cancel in AUDIO_OUTPUT_PLAYBACK mode: the anchor of the interruption figure.
        .executableTarget(name: "espeak-cancel-anchor", dependencies: ["CEspeakAnchor"]),
        // The speech figures of issues 3 and 6, through the real backend.
        .executableTarget(
            name: "speech-benchmark",
            dependencies: [.product(name: "OTCPromptSpeech", package: "otc-prompt")]
        ),
    ]
)

// swift-tools-version: 6.1
// otc-prompt: an accessible one-time-code prompt for the terminal.
// SPDX-License-Identifier: GPL-3.0-or-later
import PackageDescription

let package = Package(
    name: "otc-prompt",
    products: [
        .executable(name: "otc-prompt", targets: ["otc-prompt"]),
        // For the benchmark package in Benchmarks/, which depends on this one by path.
        .library(name: "OTCPromptSpeech", targets: ["OTCPromptSpeech", "OTCPromptCore"]),
    ],
    targets: [
        // C libraries, each wrapped by exactly one Swift module (OTCPromptSpeech). Their headers only: none is
        // linked, OTCPromptSpeech loads them with dlopen when speech starts (the door's SharedLibrary; the footprint and start-up targets), so a run
        // that does not speak never maps them and one without them falls back to text. No pkgConfig: it would
        // add -lespeak-ng. packaging/check-binary fails when the binary needs one of them at load time again.
        .systemLibrary(
            name: "CEspeakNG",
            providers: [.apt(["libespeak-ng-dev"])]
        ),
        .systemLibrary(
            name: "CPCAudio",
            providers: [.apt(["libpcaudio-dev"])]
        ),
        // libpulse.so.0's asynchronous API, declared in shim.h (no libpulse-dev needed).
        .systemLibrary(name: "CPulseAudio"),
        // libbrlapi.so.0.8's client API, declared in shim.h (no libbrlapi-dev needed); loaded by OTCPromptBraille.
        .systemLibrary(name: "CBrlAPI"),

        // Pure: the field, the key decoder, the wording, the renderers. No I/O.
        .target(name: "OTCPromptCore"),

        // The door to the OS that every other module goes through: the syscall wrapper (one EINTR rule, one
        // error type, a test-only hook that forces an errno), the monotonic clock, the thread starter, the
        // duration conversions (one rounding rule), the sockaddr_un builder, the dynamic loader (SharedLibrary), the
        // wake-up pipe and the monotonic condition variable (ConditionLock). Depends on nothing but Glibc.
        .target(name: "OTCPromptSystem"),

        // The host the prompt runs on, through the door: processes (/proc, the ones it starts, their liveness and
        // signals), local sockets, the files it trusts or writes (the one trust check, the state directory, the
        // configuration and output files), the password agent's directories and ask files, the system log and the
        // PC speaker; one error type for all of them. It knows nothing of the terminal.
        .target(
            name: "OTCPromptHost",
            dependencies: ["OTCPromptCore", "OTCPromptSystem"]
        ),

        // The terminal the prompt runs on, through the door: /dev/tty, termios and raw mode, one poll for keys, signals
        // and a caller's end, the terminal's devices and login, the locale's codeset, standard output, and the
        // terminal the password agent hands to its next image. What it needs of processes and signals is the host's.
        .target(
            name: "OTCPromptTerminal",
            dependencies: ["OTCPromptCore", "OTCPromptSystem", "OTCPromptHost"]
        ),

        // libespeak-ng synthesis and PulseAudio / pcaudiolib / WAV output behind the core's SpeechBackend; the one
        // module that loads and calls those three libraries. Its syscalls, clock and threads are the door's.
        .target(
            name: "OTCPromptSpeech",
            dependencies: ["OTCPromptCore", "OTCPromptSystem", "CEspeakNG", "CPCAudio", "CPulseAudio"]
        ),

        // The user's speech-dispatcher over SSIP (its unix socket and autospawn, through OTCPromptHost), with
        // the text backend as fallback. SSIP encoding, replies and address resolution are pure.
        .target(
            name: "OTCPromptSpeechDispatcher",
            dependencies: ["OTCPromptCore", "OTCPromptHost"]
        ),

        // Braille in one module: its pure logic in Logic/ (the line in cells, BrlAPI's keys, whose display may be
        // used), and the display through BrlAPI (libbrlapi loaded with dlopen, every call on a thread of its own)
        // behind the core's SessionOutput; the server's owner is judged through OTCPromptHost's probes, the user's
        // login and its terminal through OTCPromptTerminal's.
        .target(
            name: "OTCPromptBraille",
            dependencies: ["OTCPromptCore", "OTCPromptSystem", "OTCPromptHost", "OTCPromptTerminal", "CBrlAPI"]
        ),

        // The prompt's event loop: keys, time and a running check in, a session's effects out,
        // through the terminal, clock and check process it is given (no syscalls of its own).
        .target(
            name: "OTCPromptLoop",
            dependencies: ["OTCPromptCore"]
        ),

        // Each setting declared once (name, values, default, help): the command-line options, the
        // configuration file (its own reader, a strict subset of TOML), the messages and the docs' tables.
        .target(
            name: "OTCPromptSettings",
            dependencies: ["OTCPromptCore"]
        ),

        // Every front end (the plain prompt, askpass, pinentry, --stdin) as one path: its caller's request turned
        // into a `Request`, the session that asks it, its outcome mapped back. Pure: the terminal, the pipes and the
        // state directory stay in OTCPromptProgram, OTCPromptTerminal and OTCPromptHost.
        .target(
            name: "OTCPromptFrontEnds",
            dependencies: ["OTCPromptCore", "OTCPromptLoop", "OTCPromptSettings"]
        ),

        // The man page and the bash, zsh and fish completions, generated from the declarations. Not shipped in
        // the binary: `otc-prompt-docs` writes them for make docs, and a test keeps docs/ equal to them.
        .target(
            name: "OTCPromptDocs",
            dependencies: ["OTCPromptSettings"]
        ),
        .executableTarget(
            name: "otc-prompt-docs",
            dependencies: ["OTCPromptDocs"]
        ),

        // The doubles and harnesses every test shares; their sockets' addresses are the door's (UnixSocketAddress).
        .target(
            name: "OTCPromptTestSupport",
            dependencies: ["OTCPromptCore", "OTCPromptSystem"]
        ),

        // The program: the command line parsed, the front end chosen from the one list (`FrontEnds.all`), the
        // shared context built once, the outputs chosen from theirs (`PromptOutputs.all`), the modules wired
        // together for the front end's run. A library, so that the
        // tests reach every rule it holds.
        .target(
            name: "OTCPromptProgram",
            dependencies: [
                "OTCPromptCore",
                "OTCPromptLoop",
                "OTCPromptHost",
                "OTCPromptTerminal",
                "OTCPromptSpeech",
                "OTCPromptSpeechDispatcher",
                "OTCPromptSettings",
                "OTCPromptFrontEnds",
                "OTCPromptBraille",
            ]
        ),

        // The thin executable: OTCPromptProgram's entry point, nothing more.
        .executableTarget(
            name: "otc-prompt",
            dependencies: ["OTCPromptProgram"],
            // libespeak-ng's audio probe lands in OTCPromptSpeech's EspeakAudioProbe, which declines it
            // while the engine starts (the footprint and start-up targets, docs/architecture.md): the executable must export it.
            linkerSettings: [.unsafeFlags(["-Xlinker", "--export-dynamic-symbol=create_audio_device_object"])]
        ),

        .testTarget(
            name: "OTCPromptCoreTests",
            // OTCPromptFrontEnds too: a documented askpass transcript is replayed through the askpass front end.
            dependencies: ["OTCPromptCore", "OTCPromptFrontEnds", "OTCPromptTestSupport"]
        ),
        .testTarget(
            name: "OTCPromptSystemTests",
            dependencies: ["OTCPromptSystem"]
        ),
        .testTarget(
            name: "OTCPromptLoopTests",
            dependencies: ["OTCPromptLoop", "OTCPromptCore", "OTCPromptTestSupport"]
        ),
        .testTarget(
            name: "OTCPromptHostTests",
            dependencies: ["OTCPromptHost", "OTCPromptTestSupport"]
        ),
        .testTarget(
            name: "OTCPromptTerminalTests",
            dependencies: ["OTCPromptTerminal", "OTCPromptHost", "OTCPromptTestSupport"]
        ),
        .testTarget(
            name: "OTCPromptSettingsTests",
            dependencies: ["OTCPromptSettings", "OTCPromptDocs", "OTCPromptCore", "OTCPromptTestSupport"]
        ),
        .testTarget(
            name: "OTCPromptFrontEndsTests",
            dependencies: ["OTCPromptFrontEnds", "OTCPromptCore", "OTCPromptLoop", "OTCPromptSettings"]
        ),
        // OTCPromptHost too: the WAV sink is tested through the bounded writes the program hands it.
        .testTarget(
            name: "OTCPromptSpeechTests",
            dependencies: ["OTCPromptSpeech", "OTCPromptHost", "OTCPromptTestSupport"]
        ),
        .testTarget(
            name: "OTCPromptSpeechDispatcherTests",
            dependencies: ["OTCPromptSpeechDispatcher", "OTCPromptHost", "OTCPromptTestSupport"]
        ),
        // Braille's pure logic (Logic/), and the braille output against a real brltty (its Virtual driver as the
        // display): those skip without brltty.
        .testTarget(
            name: "OTCPromptBrailleTests",
            dependencies: ["OTCPromptBraille", "OTCPromptCore", "OTCPromptTestSupport"]
        ),
        // The program's own rules (the front ends' registry, the agent's requests, the routes), without a process.
        .testTarget(
            name: "OTCPromptProgramTests",
            dependencies: [
                "OTCPromptProgram", "OTCPromptCore", "OTCPromptFrontEnds", "OTCPromptHost", "OTCPromptSettings",
                "OTCPromptSystem", "OTCPromptTerminal", "OTCPromptTestSupport",
            ]
        ),
        .testTarget(
            name: "OTCPromptEndToEndTests",
            dependencies: ["OTCPromptTestSupport", "OTCPromptCore"]
        ),
        // The real clients (sudo, sshd and ssh, ssh-agent, git over HTTP) started by the tests, with a
        // throwaway user and private ports, homes and sockets; they need root and skip without it.
        .testTarget(
            name: "OTCPromptLoginTests",
            dependencies: ["OTCPromptTestSupport"],
            exclude: ["Fixtures"]
        ),
    ]
)

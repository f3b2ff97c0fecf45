import Foundation
import Testing

/// packaging/initrd/sound, the card the disk prompt speaks on at boot and its mixer, run by dash (as initramfs-tools'
/// busybox sh would) against a fixture for /proc/asound and a stand-in for amixer.
@Suite struct InitrdSoundTests {
    /// A /proc/asound in $WORK/asound: each card "INDEX ID" and its playback devices' /proc/asound/pcm lines.
    static func fixture(cards: [String], pcm: [String]) -> String {
        var script = "mkdir -p \"$WORK/asound\" \"$WORK/pci\"\n"
        for card in cards {
            let parts = card.split(separator: " ")
            script +=
                "mkdir -p \"$WORK/asound/card\(parts[0])\"; echo \(parts[1]) >\"$WORK/asound/card\(parts[0])/id\"\n"
        }
        script += "cat >\"$WORK/asound/pcm\" <<'PCM'\n" + pcm.joined(separator: "\n") + "\nPCM\n"
        return script
    }

    static let environment = ["OTC_PROMPT_BOOT_CONF": "/nonexistent"]

    static func route(cards: [String], pcm: [String], card: String? = nil) throws -> InitrdScriptsTests.Run {
        try InitrdScriptsTests.run(
            fixture(cards: cards, pcm: pcm) + """
                ASOUND_PROC=$WORK/asound OTC_PROMPT_PCI=$WORK/pci \(card.map { "OTC_PROMPT_CARD='\($0)'" } ?? "") \
                sh "$PACKAGING/initrd/sound" card
                """, shell: "/bin/dash", environment: environment)
    }

    static let laptop = (
        cards: ["0 PCH"],
        pcm: ["00-00: ALC3246 Analog : ALC3246 Analog : playback 1 : capture 1", "00-03: HDMI 0 : HDMI 0 : playback 1"]
    )
    static let desktop = (
        cards: ["0 NVidia", "1 Generic", "2 Headset"],
        pcm: [
            "00-03: HDMI 0 : HDMI 0 : playback 1", "01-03: HDMI 0 : HDMI 0 : playback 1",
            "02-00: USB Audio : USB Audio : playback 1 : capture 1",
        ]
    )

    @Test func anAnalogOutputIsChosenBeforeHDMIOnTheSameCardOrOnAnEarlierOne() throws {
        #expect(try Self.route(cards: Self.laptop.cards, pcm: Self.laptop.pcm).output == "analog 0,0\n")
        #expect(try Self.route(cards: Self.desktop.cards, pcm: Self.desktop.pcm).output == "analog 2,0\n")
    }

    @Test func withOnlyHDMIItIsHDMIAndWithNoCardNone() throws {
        #expect(
            try Self.route(cards: ["0 NVidia"], pcm: ["00-03: HDMI 0 : HDMI 0 : playback 1"]).output == "hdmi 0,3\n")
        #expect(try Self.route(cards: [], pcm: []).output == "none\n")
        // A capture-only device speaks nothing.
        #expect(try Self.route(cards: ["0 Mic"], pcm: ["00-00: USB Audio : USB Audio : capture 1"]).output == "none\n")
    }

    @Test func theCardTheUserNamedComesFirstByIdIndexOrDevice() throws {
        #expect(
            try Self.route(cards: Self.desktop.cards, pcm: Self.desktop.pcm, card: "Generic").output == "hdmi 1,3\n")
        #expect(try Self.route(cards: Self.desktop.cards, pcm: Self.desktop.pcm, card: "0,3").output == "hdmi 0,3\n")
        #expect(try Self.route(cards: Self.laptop.cards, pcm: Self.laptop.pcm, card: "PCH,3").output == "hdmi 0,3\n")
    }

    @Test func aNamedCardThatIsNotThereIsSaidAndAnotherChosen() throws {
        let run = try Self.route(cards: Self.laptop.cards, pcm: Self.laptop.pcm, card: "Headset")
        #expect(run.output == "analog 0,0\n")
        #expect(run.errors.contains("the sound card Headset is not there"))
    }

    /// An amixer that prints a card's controls as `amixer contents` does and records what it is asked to set.
    static let amixer = """
        mkdir -p "$WORK/bin"
        cat >"$WORK/bin/amixer" <<'AMIXER'
        #!/bin/sh
        case "$*" in
        *contents*) cat <<'CONTENTS'
        numid=2,iface=MIXER,name='Master Playback Switch'
          ; type=BOOLEAN,access=rw------,values=1
          : values=off
        numid=1,iface=MIXER,name='Master Playback Volume'
          ; type=INTEGER,access=rw---R--,values=2,min=0,max=87,step=0
          : values=0,0
          | dBscale-min=-65.25dB,step=0.75dB,mute=0
        numid=5,iface=MIXER,name='Capture Volume'
          ; type=INTEGER,access=rw---R--,values=2,min=0,max=63,step=0
          : values=20,20
        CONTENTS
        ;;
        *) echo "amixer $*" >>"$WORK/amixer"; cat >>"$WORK/amixer" ;;
        esac
        AMIXER
        chmod +x "$WORK/bin/amixer"
        """

    @Test func prepareMakesTheCardTheDefaultAndUnmutesItThenRestorePutsBackItsLevels() throws {
        let run = try InitrdScriptsTests.run(
            Self.fixture(cards: Self.laptop.cards, pcm: Self.laptop.pcm) + Self.amixer + """

                export PATH="$WORK/bin:$PATH" ASOUND_PROC=$WORK/asound OTC_PROMPT_PCI=$WORK/pci
                export ASOUND_CONF=$WORK/etc/asound.conf OTC_PROMPT_SOUND_STATE=$WORK/run OTC_PROMPT_VOLUME=70
                sh "$PACKAGING/initrd/sound" prepare
                echo "--- asound.conf"; cat "$WORK/etc/asound.conf"
                echo "--- route"; cat "$WORK/run/route"; [ -e "$WORK/run/agent.env" ] && echo "agent.env"
                echo "--- set"; cat "$WORK/amixer"; : >"$WORK/amixer"
                sh "$PACKAGING/initrd/sound" restore
                echo "--- restored"; cat "$WORK/amixer"
                [ -e "$WORK/run/mixer" ] || echo "--- state removed"
                """, shell: "/bin/dash", environment: Self.environment)
        #expect(run.status == 0, "\(run.errors)")
        #expect(
            run.output == """
                --- asound.conf
                pcm.!default { type plug; slave.pcm "hw:0,0" }
                ctl.!default { type hw; card 0 }
                --- route
                analog 0,0
                --- set
                amixer -q -c 0 -s
                cset numid=2 on
                cset numid=1 70%
                --- restored
                amixer -q -c 0 -s
                cset numid=2 off
                cset numid=1 0,0
                --- state removed

                """)
    }

    /// And the agent is pointed at its settings for text lines (its drop-in's EnvironmentFile=).
    @Test func withNoCardPrepareTouchesNoMixerAndUnlockedPlaysTheToneOnlyOnceADiskIsOpen() throws {
        let run = try InitrdScriptsTests.run(
            Self.fixture(cards: [], pcm: []) + Self.amixer + """

                cat >"$WORK/bin/otc-prompt" <<'PROMPT'
                #!/bin/sh
                echo "otc-prompt $*"
                PROMPT
                chmod +x "$WORK/bin/otc-prompt"
                export PATH="$WORK/bin:$PATH" ASOUND_PROC=$WORK/asound OTC_PROMPT_PCI=$WORK/pci
                export ASOUND_CONF=$WORK/etc/asound.conf OTC_PROMPT_SOUND_STATE=$WORK/run
                export OTC_PROMPT_MAPPER=$WORK/mapper; mkdir "$WORK/mapper"; : >"$WORK/mapper/control"
                export OTC_PROMPT_TEXT_CONFIG=$WORK/config-text; : >"$OTC_PROMPT_TEXT_CONFIG"
                sh "$PACKAGING/initrd/sound" prepare
                cat "$WORK/run/route"; [ -e "$WORK/amixer" ] || echo "no mixer touched"
                cat "$WORK/run/agent.env"
                sh "$PACKAGING/initrd/sound" unlocked
                echo "locked: nothing"
                sh "$PACKAGING/initrd/sound" prepare
                : >"$WORK/mapper/luks-a1aaba2d"
                sh "$PACKAGING/initrd/sound" unlocked
                echo "once only:"; sh "$PACKAGING/initrd/sound" unlocked
                """, shell: "/bin/dash", environment: Self.environment)
        #expect(run.status == 0, "\(run.errors)")
        #expect(
            run.output
                == "none\nno mixer touched\nOTC_PROMPT_CONFIG=\(run.work)/config-text\nlocked: nothing\n"
                + "otc-prompt --boot-cue unlocked\nonce only:\n")
    }
}

#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# dracut module: the disk passphrase asked by otc-prompt's password agent on the console, spoken, in an initrd
# built on systemd (systemd-cryptsetup asks through /run/systemd/ask-password). docs/user-guide.md, "The disk
# passphrase at boot". Off unless asked for, in a file of /etc/dracut.conf.d:
#   add_dracutmodules+=" otc-prompt "
# and, if wanted, in the same file:
#   otc_prompt_language="pt_BR"   the words and the one voice put in the image (else the system's LANG)
#   otc_prompt_card="PCH"         the sound card to speak on: its index or id, ",DEVICE" if not the first
#                                 (else the first that is not HDMI; packaging/initrd/sound)
#   otc_prompt_volume="75"        the level its Master, PCM, Speaker and Headphone are set to while it asks

# Where the parts are: the package's, or a build tree's (the boot test sets these).
otc_prompt_binary=${otc_prompt_binary:-/usr/bin/otc-prompt}
otc_prompt_share=${otc_prompt_share:-/usr/share/otc-prompt/initrd}
otc_prompt_units=${otc_prompt_units:-/usr/lib/systemd/system}

# called by dracut
check() {
    require_binaries "$otc_prompt_binary" || return 1
    # Only when the configuration asks for it.
    return 255
}

# called by dracut
depends() {
    echo systemd
    return 0
}

# The list every kind of initrd puts in (packaging/initrd/contents), for one language.
otc_prompt_contents() {
    "$otc_prompt_share/contents" "${otc_prompt_language:-}"
}

# called by dracut
installkernel() {
    local kind value
    while read -r kind value; do
        # Any machine's sound card and PC speaker, not only this one's: the image may boot another.
        [[ $kind == module ]] && hostonly='' instmods "$value"
    done < <(otc_prompt_contents)
    return 0
}

# A library and those it links: dracut-install resolves the libraries of executable files only, and Debian's
# libraries are not executable (libespeak-ng needs libpcaudio, libsonic, libpulse and theirs).
otc_prompt_library() {
    local library
    inst_library "$1"
    for library in $(ldd "$1" 2>/dev/null | sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p'); do
        inst_library "$library"
    done
}

# called by dracut
install() {
    local kind value unit conf="$initdir/etc/otc-prompt/boot.conf"
    inst_binary "$otc_prompt_binary" /usr/bin/otc-prompt
    # The package's console agent, as on the running system: it stops systemd's silent console agent while it
    # asks; the drop-in adds the language and the sound card's set-up for the prompt only.
    for unit in otc-prompt-ask-password-console.path otc-prompt-ask-password-console.service; do
        inst_simple "$otc_prompt_units/$unit" "$systemdsystemunitdir/$unit"
    done
    inst_simple "$otc_prompt_share/otc-prompt-initrd.conf" \
        "$systemdsystemunitdir/otc-prompt-ask-password-console.service.d/otc-prompt-initrd.conf"
    $SYSTEMCTL -q --root "$initdir" enable otc-prompt-ask-password-console.path
    # At boot both path units would fire on the same request, and systemd's silent agent could take the first keys
    # before the spoken one stops it: here it is not started with the system, only if the spoken agent fails
    # (the service's OnFailure=). Its units stay in the image for that.
    rm -f "$initdir$systemdsystemunitdir/sysinit.target.wants/systemd-ask-password-console.path" \
        "$initdir/etc/systemd/system/sysinit.target.wants/systemd-ask-password-console.path"
    inst_simple "$otc_prompt_share/otc-prompt-unlocked.service" "$systemdsystemunitdir/otc-prompt-unlocked.service"
    $SYSTEMCTL -q --root "$initdir" enable otc-prompt-unlocked.service

    inst_script "$otc_prompt_share/sound" /usr/share/otc-prompt/initrd/sound
    inst_simple "$otc_prompt_share/pulse-client.conf" /usr/share/otc-prompt/initrd/pulse-client.conf
    inst_multiple cat sed mkdir rm sleep
    # amixer (alsa-utils) unmutes the card for the prompt; without it the card keeps the driver's levels.
    if find_binary amixer >/dev/null; then
        inst_multiple amixer
    else
        dwarning "otc-prompt: amixer (alsa-utils) is missing; a card muted at boot stays muted."
    fi

    mkdir -p "${conf%/*}"
    : >"$conf"
    while read -r kind value; do
        case $kind in
            language)
                printf 'lang = "%s"\n' "$value" >"$initdir/etc/otc-prompt/config"
                # With no sound card to speak on (packaging/initrd/sound chooses it at boot).
                printf 'lang = "%s"\nspeech = "text"\n' "$value" >"$initdir/etc/otc-prompt/config-text"
                ;;
            library) otc_prompt_library "$value" ;;
            file) inst_simple "$value" ;;
        esac
    done < <(otc_prompt_contents)
    [[ $otc_prompt_card ]] && printf 'OTC_PROMPT_CARD=%s\n' "$otc_prompt_card" >>"$conf"
    [[ $otc_prompt_volume ]] && printf 'OTC_PROMPT_VOLUME=%s\n' "$otc_prompt_volume" >>"$conf"
    return 0
}

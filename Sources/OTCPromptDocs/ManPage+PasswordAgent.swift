/// The man page's sections on the password agent and the files the package installs for it: prose that no option
/// declaration holds (docs/user-guide.md, "Answer system password requests by ear", says it at length).
extension ManPage {
    /// PASSWORD AGENT: what `--agent` watches and answers, the console unit, the boot.
    static var passwordAgent: [String] {
        [
            ".Sh PASSWORD AGENT",
            roff(
                "With `--agent`, otc-prompt answers systemd's password requests in its terminal, spoken: those in "
                    + "/run/systemd/ask-password when run as root, the user's own in "
                    + "$XDG_RUNTIME_DIR/systemd/ask-password, and the questions otc-prompt posts in "
                    + "$XDG_RUNTIME_DIR/otc-prompt/ask when it has no terminal. With `--query` it answers what "
                    + "is pending, then exits."),
            ".Pp",
            roff(
                "Requests are asked one at a time, oldest first, saying how many more wait; Enter answers, Esc "
                    + "declines; a deadline is spoken as the time left, and a request that is withdrawn (its file "
                    + "removed, its asker gone, its time out) ends with \"Request withdrawn.\" Keys typed before a "
                    + "request appeared are never its answer. A request that arrives while another is asked is said "
                    + "at once, and Ctrl-R says what waits. After a withdrawal every key is dropped until what comes "
                    + "next has been heard and the keyboard has paused, and how many were dropped is said. The "
                    + "directories are watched with inotify, without a timer; one removed or moved away is watched "
                    + "again when it comes back."
            ),
            ".Pp",
            roff(
                "Only regular files in the watched directories are read, owned by root in the system directory "
                    + "or by the user in the user's, and the reply goes only to a socket in the same directory with "
                    + "the same owner: a user's agent never answers another user's requests. Every directory above "
                    + "a watched one must be root's or its owner's, writable by no one else unless sticky and root's "
                    + "(/tmp), and no symbolic link: otherwise another user could swap the directory whole."),
            ".Pp",
            roff(
                "What a request's Id says it is for (\"For disk sda2.\") is said so only for a request in a "
                    + "directory of root's, which only root could write. Every request from the user's own "
                    + "directories, which any of the user's programs may write, is said as that program's, its "
                    + "marking first: \"A program of yours asks:\" before its question, its other lines as one line "
                    + "after \"Not from the system: a program of yours wrote:\", its Id as a claim; its Echo=1 is "
                    + "masked unless --agent-echo-user-requests."),
            ".Pp",
            roff(
                "The console agent, for the whole system, is off until enabled: "
                    + "`systemctl enable --now otc-prompt-ask-password-console.path`. It runs `otc-prompt --agent` "
                    + "on /dev/console when a request waits, after stopping systemd's own console agent. There is "
                    + "no user unit for the agent: run it in a terminal of your own (a tmux window, a virtual "
                    + "console). The one user unit is the touch cues' (`--touch-watch`), which asks nothing: "
                    + "`systemctl --user enable --now otc-prompt-touch-watch.service`."),
            ".Pp",
            roff(
                "At boot, Debian's initramfs-tools run otc-prompt as cryptsetup's keyscript "
                    + "(`keyscript=otc-prompt` in /etc/crypttab; tested by `make boot-test`); an initrd built on "
                    + "systemd (dracut, mkinitcpio's sd-encrypt) asks through the password agent instead, with the "
                    + "console unit put into the image (not tested)."),
        ]
    }

    /// FILES: what the package installs beside the binary and the man page.
    static var files: [String] {
        [
            ".Sh FILES",
            ".Bl -tag -width Ds",
            ".It Pa /usr/lib/systemd/system/otc-prompt-ask-password-console.path",
            roff("Starts the console agent when /run/systemd/ask-password holds a request (not enabled)."),
            ".It Pa /usr/lib/systemd/system/otc-prompt-ask-password-console.service",
            roff("Runs `otc-prompt --agent` on /dev/console."),
            ".It Pa /usr/lib/systemd/user/otc-prompt-touch-watch.service",
            roff(
                "A user unit running `otc-prompt --touch-watch`: says when a security key waits for a touch, from "
                    + "pam_u2f's pending file and yubikey-touch-detector's socket (not enabled)."),
            ".It Pa /usr/lib/cryptsetup/scripts/otc-prompt",
            roff("cryptsetup's keyscript: the disk passphrase at boot, with initramfs-tools."),
            ".El",
        ]
    }
}

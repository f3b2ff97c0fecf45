// The terminal module: every termios, ioctl, open, read, write and signal call lives here.
import OTCPromptCore

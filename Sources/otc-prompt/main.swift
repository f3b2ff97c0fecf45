// SPDX-License-Identifier: GPL-3.0-or-later
import OTCPromptProgram

// Everything the program does is in OTCPromptProgram, where the tests reach it.
OTCPromptCommand.main()

// Measured data files cut mid-row: the runner ends every line, so a last line without a line break was cut short.
#pragma once

#include "gpusched/support/input_error.h"
#include "gpusched/support/text_file.h"

namespace gpusched::validation {

/// InputError "PATH:LINE: ..." when the line `reader` last returned ended at the end of the
/// file without a line break: a row cut there may still parse (a number cut short, a last
/// column that holds commas), so it is never taken as data.
inline void refuse_cut_line(const TextLineReader& reader) {
    if (reader.line_unterminated())
        throw InputError(reader.where() + ": the last line ends without a line break: the file was cut mid-row "
                                          "(the runner ends every line)");
}

}  // namespace gpusched::validation

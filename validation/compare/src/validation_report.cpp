// HTML validation report: the page around the sections' parts (title, style, the data, GPU and policy).
#include "gpusched/validation/validation_report.h"

#include "gpusched/charts/svg_format.h"

namespace gpusched::validation {

std::string render_validation_report(const ReportContext& context, const std::vector<std::string>& parts) {
    std::string h;
    h += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>gpusched validation: " +
         charts::escape_xml(context.gpu) + "</title>\n";
    h += "<style>body{font-family:sans-serif;margin:24px;max-width:1000px}table{border-collapse:collapse;display:block;overflow-x:auto}"
         "td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}td:first-child,th:first-child{text-align:left}"
         ".bad{background:#fde2e1}section{margin-top:32px}svg{display:block;margin:8px 0}</style>\n</head><body>\n";
    h += "<h1>gpusched validation report</h1>\n<p>Measured data: <code>" + charts::escape_xml(context.data_dir) +
         "</code>. Simulated with GPU <code>" + charts::escape_xml(context.gpu) + "</code> and policy <code>" +
         charts::escape_xml(context.policy) + "</code>.</p>\n";
    for (const auto& part : parts) h += part;
    h += "</body></html>\n";
    return h;
}

}  // namespace gpusched::validation

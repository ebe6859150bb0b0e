#pragma once
// Text made safe inside XML and HTML, for the HTML report, its tables and its SVG charts.
#include <string>

namespace gpuscale::results::markup {

// `text` with & < > " and ' replaced by their entities: safe as element text and as an attribute value.
std::string escape(const std::string& text);

}  // namespace gpuscale::results::markup

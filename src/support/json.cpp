#include "fencelab/support/json.h"

#include <cmath>
#include <fmt/format.h>

namespace fencelab {

void JsonWriter::separate() {
  if (m_after_key) {
    m_after_key = false;
    return;
  }
  if (!m_first.empty()) {
    if (!m_first.back()) m_out << ',';
    m_first.back() = false;
  }
}

JsonWriter& JsonWriter::begin_object() {
  separate();
  m_out << '{';
  m_first.push_back(true);
  return *this;
}

JsonWriter& JsonWriter::end_object() {
  m_out << '}';
  m_first.pop_back();
  return *this;
}

JsonWriter& JsonWriter::begin_array() {
  separate();
  m_out << '[';
  m_first.push_back(true);
  return *this;
}

JsonWriter& JsonWriter::end_array() {
  m_out << ']';
  m_first.pop_back();
  return *this;
}

JsonWriter& JsonWriter::key(std::string_view name) {
  separate();
  write_string(m_out, name);
  m_out << ':';
  m_after_key = true;
  return *this;
}

JsonWriter& JsonWriter::value(std::string_view text) {
  separate();
  write_string(m_out, text);
  return *this;
}

JsonWriter& JsonWriter::value(int64_t number) {
  separate();
  m_out << number;
  return *this;
}

JsonWriter& JsonWriter::value(uint64_t number) {
  separate();
  m_out << number;
  return *this;
}

JsonWriter& JsonWriter::value(double number) {
  separate();
  if (std::isfinite(number)) m_out << fmt::format("{}", number);
  else m_out << "null";
  return *this;
}

JsonWriter& JsonWriter::value(bool flag) {
  separate();
  m_out << (flag ? "true" : "false");
  return *this;
}

JsonWriter& JsonWriter::null() {
  separate();
  m_out << "null";
  return *this;
}

void JsonWriter::write_string(std::ostream& out, std::string_view text) {
  out << '"';
  for (const char c : text) {
    switch (c) {
    case '"': out << "\\\""; break;
    case '\\': out << "\\\\"; break;
    case '\n': out << "\\n"; break;
    case '\t': out << "\\t"; break;
    case '\r': out << "\\r"; break;
    default:
      if (static_cast<unsigned char>(c) < 0x20) out << fmt::format("\\u{:04x}", int(c));
      else out << c;
    }
  }
  out << '"';
}

} // namespace fencelab

// A minimal streaming JSON writer (objects, arrays, strings, numbers, booleans) for --json.
#pragma once

#include <cstdint>
#include <ostream>
#include <string_view>
#include <vector>

namespace fencelab {

class JsonWriter {
public:
  explicit JsonWriter(std::ostream& out) : m_out(out) {}

  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(std::string_view name);
  JsonWriter& value(std::string_view text);
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(int64_t number);
  JsonWriter& value(uint64_t number);
  JsonWriter& value(int number) { return value(int64_t(number)); }
  JsonWriter& value(unsigned number) { return value(uint64_t(number)); }
  JsonWriter& value(double number);
  JsonWriter& value(bool flag);
  JsonWriter& null();

  /** A string value escaped for JSON. */
  static void write_string(std::ostream& out, std::string_view text);

private:
  void separate();
  std::ostream& m_out;
  std::vector<bool> m_first; ///< per open container: no element written yet
  bool m_after_key = false;
};

} // namespace fencelab

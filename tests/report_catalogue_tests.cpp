// The checkers' catalogue of findings: each finding rendered once, listed per execution, and
// forgotten when its execution is abandoned (issue 12, checkers that cost little).
#include "fencelab/checkers/report_catalogue.h"

#include <catch2/catch.hpp>

using namespace fencelab;

namespace {

CheckReport race_at(uint32_t begin, const std::string& threads) {
  CheckReport r;
  r.kind = DiagnosticKind::DataRace;
  r.message = "data race (RAW) on x[" + threads + "]";
  r.sites.push_back({"write", SourceRange{begin, begin + 5}, threads});
  r.sites.push_back({"read", SourceRange{100, 105}, threads});
  return r;
}

} // namespace

TEST_CASE("the catalogue renders a finding once and lists it once per execution", "[checkers]") {
  ReportCatalogue catalogue;
  catalogue.begin_execution();
  const uint32_t a = catalogue.add(race_at(10, "(0,0,1)"));
  // The same finding again (other threads, another element): the first rendering stays.
  CHECK(catalogue.add(race_at(10, "(0,0,2)")) == a);
  catalogue.note(a);
  const uint32_t b = catalogue.add(race_at(20, "(0,0,1)"));
  CHECK(b != a);
  CHECK(catalogue.found() == std::vector<uint32_t>{a, b});
  CHECK(catalogue.report(a).sites[0].threads == "(0,0,1)");

  catalogue.begin_execution();
  CHECK(catalogue.found().empty());
  catalogue.note(b);
  CHECK(catalogue.found() == std::vector<uint32_t>{b});
}

TEST_CASE("an abandoned execution's first renderings are forgotten", "[checkers]") {
  ReportCatalogue catalogue;
  catalogue.begin_execution();
  const uint32_t a = catalogue.add(race_at(10, "(0,0,1)"));
  catalogue.begin_execution();
  catalogue.note(a);
  catalogue.add(race_at(30, "(0,0,3)"));
  CHECK(catalogue.discard_execution() == 1);
  CHECK(catalogue.size() == 1);
  CHECK(catalogue.found().empty());
  // Met again in a kept execution, the finding is rendered from that one.
  catalogue.begin_execution();
  const uint32_t c = catalogue.add(race_at(30, "(0,0,4)"));
  CHECK(c == 1);
  CHECK(catalogue.report(c).sites[0].threads == "(0,0,4)");
}

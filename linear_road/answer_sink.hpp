// Where an implementation of Linear Road hands its answers: a file writer, a test's collector,
// a validator comparing on the fly.
#pragma once

#include "linear_road/records.hpp"

namespace cwf::lr {

class AnswerSink {
 public:
  virtual ~AnswerSink() = default;
  virtual void toll(const TollNotification& answer) = 0;
  virtual void alert(const AccidentAlert& answer) = 0;
  virtual void balance(const BalanceAnswer& answer) = 0;
  virtual void expenditure(const ExpenditureAnswer& answer) = 0;
};

}  // namespace cwf::lr

#pragma once
// The first picture of a trace while it loads (io/load_preview.h): one row per GPU stream (the
// share of time busy, in the kernel colour) and per CPU thread (its slices' extent, in grey)
// over the time read so far, with a ruler of that time. Drawn on the loading page, repainted as
// each new preview arrives; the timeline replaces it when the trace is built.
#include "io/load_preview.h"

#include <QWidget>

#include <memory>

namespace strata {

class LoadPreviewView : public QWidget {
    Q_OBJECT
public:
    explicit LoadPreviewView(QWidget* parent = nullptr);
    void setPreview(std::shared_ptr<const LoadPreview> preview);
    void clear();
    const LoadPreview* preview() const { return preview_.get(); }
    QSize sizeHint() const override { return {900, 360}; }

protected:
    void paintEvent(QPaintEvent* e) override;

private:
    std::shared_ptr<const LoadPreview> preview_;
};

} // namespace strata

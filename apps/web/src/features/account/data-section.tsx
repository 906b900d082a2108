import { useState } from "react";
import { Button, Icon } from "../../components";
import { useRestClient } from "../../app/api-provider";
import { toUserMessage } from "../../lib/api-error";
import { notify } from "../../lib/toast";
import sectionText from "../settings/section-text.module.css";
import { DeleteAccountDialog } from "./delete-account-dialog";
import styles from "./account.module.css";
import { ACCOUNT_TEXT } from "./texts";

/** Saves `data` as a pretty-printed JSON file through a temporary link. */
function downloadJson(data: unknown, fileName: string): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: "application/json" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser a moment to start the download before freeing the blob.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Export my data (GET /users/export as a JSON download) and Delete my account. */
export function DataSection() {
  const rest = useRestClient();
  const [exporting, setExporting] = useState(false);
  const [deleting, setDeleting] = useState(false);

  const exportData = async () => {
    setExporting(true);
    try {
      const data = await rest.request<unknown>("/users/export");
      downloadJson(data, `quad-data-${new Date().toISOString().slice(0, 10)}.json`);
    } catch (error) {
      notify.error(toUserMessage(error, ACCOUNT_TEXT.exportFailed));
    } finally {
      setExporting(false);
    }
  };

  return (
    <>
      <div className={styles.action}>
        <div className={styles.actionText}>
          <p className={styles.actionTitle}>{ACCOUNT_TEXT.exportTitle}</p>
          <p className={sectionText.muted}>{ACCOUNT_TEXT.exportDescription}</p>
        </div>
        <Button
          variant="secondary"
          icon={<Icon name="download" size={18} />}
          loading={exporting}
          onClick={() => void exportData()}
        >
          Export
        </Button>
      </div>
      <div className={styles.action}>
        <div className={styles.actionText}>
          <p className={styles.actionTitle}>{ACCOUNT_TEXT.deleteTitle}</p>
          <p className={sectionText.muted}>Removes your account and data right away.</p>
        </div>
        <Button variant="danger" icon={<Icon name="trash" size={18} />} onClick={() => setDeleting(true)}>
          Delete
        </Button>
      </div>
      <DeleteAccountDialog open={deleting} onClose={() => setDeleting(false)} />
    </>
  );
}

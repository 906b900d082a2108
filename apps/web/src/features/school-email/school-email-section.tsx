import type { MeUser } from "@quad/contracts";
import { useState } from "react";
import { Button } from "../../components";
import { Icon } from "../../components/icon";
import { SchoolEmailForm } from "./school-email-form";
import styles from "./school-email.module.css";

/** Settings: the proved school address (private), and a way to prove another. */
export function SchoolEmailSection({ user }: { user: MeUser }) {
  const [changing, setChanging] = useState(false);
  if (!user.schoolEmailVerified || changing) {
    return (
      <>
        <SchoolEmailForm user={user} onVerified={() => setChanging(false)} />
        {changing && (
          <Button variant="ghost" block onClick={() => setChanging(false)}>
            Keep {user.schoolEmail ?? "my current address"}
          </Button>
        )}
      </>
    );
  }
  return (
    <>
      <p className={styles.address}>
        {user.schoolEmail ?? `${user.schoolName ?? "School"} member`}
        <span className={styles.verified}>
          <Icon name="check" size={14} />
          Verified
        </span>
      </p>
      <p className={styles.sent}>Only you see it. Moving to another school means verifying that school's e-mail.</p>
      <Button variant="secondary" onClick={() => setChanging(true)}>
        Change school e-mail
      </Button>
    </>
  );
}
